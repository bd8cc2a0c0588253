/**
 * An upload goes into a dataset all or nothing: it fits only if every ticket fits under `limit` with
 * those `stored` already (counted under the dataset's lock, so racing uploads never pass it together).
 */
export function uploadFits(stored: number, uploaded: number, limit: number): boolean {
  return stored + uploaded <= limit;
}

export interface UploadPlan<T> {
  /** The tickets to add, in upload order. */
  add: T[];
  /** Tickets left out: their externalId is in the dataset already, or earlier in this upload. */
  skipped: number;
  /** Whether the tickets to add fit (`uploadFits`): duplicates do not count against the limit. */
  fits: boolean;
}

/**
 * Which tickets of an upload a dataset takes: a ticket whose `externalId` the dataset holds (`known`)
 * or an earlier ticket of the upload holds is skipped; tickets without one are always added. Then
 * the rest go in all or nothing, under the limit.
 */
export function planUpload<T extends { externalId?: string }>(
  tickets: T[],
  known: ReadonlySet<string>,
  stored: number,
  limit: number,
): UploadPlan<T> {
  const seen = new Set(known);
  const add: T[] = [];
  for (const ticket of tickets) {
    if (ticket.externalId !== undefined) {
      if (seen.has(ticket.externalId)) continue;
      seen.add(ticket.externalId);
    }
    add.push(ticket);
  }
  return { add, skipped: tickets.length - add.length, fits: uploadFits(stored, add.length, limit) };
}
