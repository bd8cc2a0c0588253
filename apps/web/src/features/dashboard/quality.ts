import type { Schemas } from '../../api/client';
import { estimateText } from '../../lib/format';
import { countLabel } from '../../lib/format';

type ShareEstimate = Schemas['ShareEstimateDto'];

/** The card's headline for one pack: `Automatic decisions right: 94% (91–96%)`, or why there is none. */
export function accuracyText(share: ShareEstimate): string {
  const text = estimateText(share);
  return text === null ? 'No audit labels yet' : `Automatic decisions right: ${text}`;
}

/** `From 120 audit labels`. */
export function labelsText(labels: number): string {
  return `From ${countLabel(labels, 'audit label')}`;
}

/** How many more labels the interval needs to be within ±5 points; null once it is. */
export function fivePointsText(needed: number): string | null {
  if (!(needed > 0)) return null;
  return `About ${countLabel(needed, 'more audit label', 'more audit labels')} for ±5 points`;
}
