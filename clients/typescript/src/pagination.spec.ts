import { describe, expect, it } from '@jest/globals';
import { TicketJudgeError } from './errors.js';
import { paginate, pages, type Page } from './pagination.js';

const ok = <P>(data: P) => Promise.resolve({ data, response: new Response(null, { status: 200 }) });

/** A list of `n` numbers served `size` a page, recording the cursors asked for. */
function list(n: number, size: number) {
  const asked: Array<string | undefined> = [];
  const fetchPage = (cursor: string | undefined) => {
    asked.push(cursor);
    const start = cursor ? Number(cursor) : 0;
    const items = Array.from({ length: Math.min(size, n - start) }, (_, i) => start + i);
    const nextCursor = start + size < n ? String(start + size) : null;
    return ok<Page<number>>({ items, nextCursor });
  };
  return { asked, fetchPage };
}

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

describe('paginate', () => {
  it('yields every item across pages, following nextCursor until it is null', async () => {
    const { asked, fetchPage } = list(7, 3);
    expect(await collect(paginate(fetchPage))).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(asked).toEqual([undefined, '3', '6']);
  });

  it('goes on past an empty page that still has a nextCursor, and stops at null', async () => {
    const served = [
      { items: [1], nextCursor: 'a' },
      { items: [], nextCursor: 'b' },
      { items: [2], nextCursor: null },
    ];
    expect(await collect(paginate(() => ok(served.shift()!)))).toEqual([1, 2]);
  });

  it('fetches the next page only when the items run out', async () => {
    const { asked, fetchPage } = list(10, 3);
    for await (const item of paginate(fetchPage)) if (item === 1) break;
    expect(asked).toEqual([undefined]);
  });

  it("rejects with the service's error on a refusal", async () => {
    const refused = () =>
      Promise.resolve({
        error: { error: 'invalid cursor' },
        response: new Response(null, { status: 400 }),
      });
    await expect(collect(paginate<Page<number>>(refused))).rejects.toEqual(
      expect.objectContaining({ status: 400, message: 'invalid cursor' }),
    );
    await expect(collect(paginate<Page<number>>(refused))).rejects.toBeInstanceOf(TicketJudgeError);
  });

  it('stops a cursor that does not advance instead of looping', async () => {
    await expect(collect(pages(() => ok({ items: [1], nextCursor: 'same' })))).rejects.toThrow(
      'the cursor did not advance: same',
    );
  });
});
