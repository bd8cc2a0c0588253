/**
 * An upload goes into a dataset all or nothing: it fits only if every ticket fits under `limit` with
 * those `stored` already (counted under the dataset's lock, so racing uploads never pass it together).
 */
export function uploadFits(stored: number, uploaded: number, limit: number): boolean {
  return stored + uploaded <= limit;
}
