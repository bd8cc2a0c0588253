import type { Schemas } from '../api/client';
const dateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** A local date and time (`Nov 25, 2026, 9:41 AM`); `—` when absent, the input as given when not a date. */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateTimeFormat.format(date);
}

/** A share (0..1) as a percentage with at most `digits` decimals (`12.3%`, `100%`); `—` when unknown. */
export function formatPercent(value: number | null | undefined, digits = 0): string {
  if (value === null || value === undefined || Number.isNaN(value)) return '—';
  return `${Number((value * 100).toFixed(digits))}%`;
}

/** The first block of a UUID, enough to tell items apart in a short list. */
export function shortId(id: string): string {
  return id.slice(0, 8);
}

const countFormat = new Intl.NumberFormat('en-US');

/** A count with its thousands separated: `1,234`. */
export function formatCount(count: number): string {
  return countFormat.format(count);
}

/** A count the API stopped at a cap (`total`, `totalCapped`) as shown: `247`, or `1,000+` when capped. */
export function totalText(total: number, capped: boolean): string {
  return `${formatCount(total)}${capped ? '+' : ''}`;
}

/** "1 ticket", "1,200 tickets"; `nouns` where the plural is not the noun and an s ("2 deliveries"). */
export function countLabel(count: number, noun: string, nouns = `${noun}s`): string {
  return `${formatCount(count)} ${count === 1 ? noun : nouns}`;
}

const dayFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });
const relativeFormat = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });

/**
 * `just now`, `5 minutes ago`, `3 hours ago`, `yesterday`, then the date after a week; a time to
 * come the same way (`in 5 minutes`, `tomorrow`).
 */
export function formatWhen(iso: string | null | undefined, now: Date = new Date()): string {
  if (!iso) return 'Never';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const ahead = date.getTime() > now.getTime() ? 1 : -1;
  const seconds = Math.round(Math.abs(now.getTime() - date.getTime()) / 1000);
  // Within 45 s either way, a clock slightly ahead included.
  if (seconds < 45) return 'just now';
  const minutes = Math.round(seconds / 60);
  if (minutes < 45) return relativeFormat.format(ahead * minutes, 'minute');
  const hours = Math.round(minutes / 60);
  if (hours < 22) return relativeFormat.format(ahead * hours, 'hour');
  const days = Math.round(hours / 24);
  if (days < 7) return relativeFormat.format(ahead * days, 'day');
  return dayFormat.format(date);
}

/** `812 ms`, `1.4 s`; a dash when there is nothing to average. */
export function formatLatency(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms) || ms <= 0) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
}

/** A share as a whole percent without its sign, for the low end of a range (`91` in `91–96%`). */
function percentNumber(value: number): string {
  return formatPercent(value).replace(/%$/, '');
}

/**
 * An estimate with its interval, `94% (91–96%)`; the estimate alone when the interval is missing,
 * null when there is no estimate (no labels is not 0%).
 */
export function estimateText(share: Schemas['ShareEstimateDto']): string | null {
  if (share.estimate === null) return null;
  const estimate = formatPercent(share.estimate);
  if (share.low === null || share.high === null) return estimate;
  return `${estimate} (${percentNumber(share.low)}–${formatPercent(share.high)})`;
}
