import type { Schemas } from '../../api/client';
import { formatPercent } from '../../lib/format';
import { plural } from './dashboard';

type ShareEstimate = Schemas['ShareEstimateDto'];

/** A share as a whole percent without its sign, for the low end of a range (`91` in `91–96%`). */
function percentNumber(value: number): string {
  return formatPercent(value).replace(/%$/, '');
}

/**
 * An estimate with its interval, `94% (91–96%)`; the estimate alone when the interval is missing,
 * null when there is no estimate (no labels is not 0%).
 */
export function estimateText(share: ShareEstimate): string | null {
  if (share.estimate === null) return null;
  const estimate = formatPercent(share.estimate);
  if (share.low === null || share.high === null) return estimate;
  return `${estimate} (${percentNumber(share.low)}–${formatPercent(share.high)})`;
}

/** The card's headline for one pack: `Automatic decisions right: 94% (91–96%)`, or why there is none. */
export function accuracyText(share: ShareEstimate): string {
  const text = estimateText(share);
  return text === null ? 'No audit labels yet' : `Automatic decisions right: ${text}`;
}

/** `From 120 audit labels`. */
export function labelsText(labels: number): string {
  return `From ${plural(labels, 'audit label')}`;
}

/** How many more labels the interval needs to be within ±5 points; null once it is. */
export function fivePointsText(needed: number): string | null {
  if (!(needed > 0)) return null;
  return `About ${plural(needed, 'more audit label', 'more audit labels')} for ±5 points`;
}
