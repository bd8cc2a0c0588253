/**
 * react-router's browser history numbers its entries: each `pushState` it makes carries
 * `{ idx }`, one more than the entry it left, and the first entry of a page load gets `idx: 0`.
 * That number is how a `popstate` tells Back (-1) from Forward (+1) and how far to undo it.
 */

/** The entry's `idx`; null for an entry react-router did not write. */
export function historyIndex(state: unknown): number | null {
  if (typeof state !== 'object' || state === null || !('idx' in state)) return null;
  const { idx } = state;
  return typeof idx === 'number' && Number.isInteger(idx) ? idx : null;
}

/**
 * How many entries a Back or Forward moved, from the entry numbered `from` to the one whose state
 * the `popstate` carries: negative back, positive forward, 0 when it lands where it was (an undone
 * step); null when either entry is not numbered.
 */
export function historyStep(from: number | null, state: unknown): number | null {
  const to = historyIndex(state);
  return from === null || to === null ? null : to - from;
}
