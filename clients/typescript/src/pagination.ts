import { TicketJudgeError } from './errors.js';

/** A page of a cursor list: `GET /api/evaluations`, `/api/reviews`, `/api/webhook-deliveries`, … */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/** What an openapi-fetch call resolves to: the data, or the error with the response. */
export interface Answer<P> {
  data?: P;
  error?: unknown;
  response: Response;
}

/**
 * Every page of a cursor list, in order: `fetchPage(undefined)` for the first, then the previous
 * page's `nextCursor`, until it is `null` (the only end: a short or empty page is not one). Send
 * the same filters with every cursor. A refusal rejects with a `TicketJudgeError` (`invalid cursor`).
 */
export async function* pages<P extends Page<unknown>>(
  fetchPage: (cursor: string | undefined) => Promise<Answer<P>>,
): AsyncGenerator<P, void, undefined> {
  let cursor: string | undefined;
  for (;;) {
    const { data, error, response } = await fetchPage(cursor);
    if (!data) throw TicketJudgeError.from(response, error);
    yield data;
    if (data.nextCursor === null) return;
    // A cursor that does not move would loop for ever; the service never sends one.
    if (data.nextCursor === cursor) throw new Error(`the cursor did not advance: ${cursor}`);
    cursor = data.nextCursor;
  }
}

/**
 * Every item of a cursor list, fetching the next page only when the last one is used up:
 *
 *   for await (const evaluation of paginate((cursor) =>
 *     client.GET('/api/evaluations', { params: { query: { status: 'review', cursor } } }),
 *   )) { … }
 */
export async function* paginate<P extends Page<unknown>>(
  fetchPage: (cursor: string | undefined) => Promise<Answer<P>>,
): AsyncGenerator<P['items'][number], void, undefined> {
  for await (const page of pages(fetchPage)) yield* page.items as Array<P['items'][number]>;
}
