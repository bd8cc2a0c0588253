import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { InvalidatedCache } from './invalidated-cache.js';

interface Row {
  id: string;
  version: number;
}

/** A loader that counts its calls and answers the next version of the row each time. */
function loader(id = 'row') {
  let calls = 0;
  const load = () => Promise.resolve<Row>({ id, version: ++calls });
  return { load, calls: () => calls };
}

function cache(options: { ttlMs?: number; maxEntries?: number; live?: () => boolean } = {}) {
  return new InvalidatedCache<Row>(
    'test',
    { ttlMs: options.ttlMs ?? 60_000, maxEntries: options.maxEntries ?? 100 },
    options.live ?? (() => true),
  );
}

describe('InvalidatedCache', () => {
  afterEach(() => {
    jest.restoreAllMocks();
  });

  it('serves a hit without loading again', async () => {
    const rows = cache();
    const { load, calls } = loader();
    expect(await rows.get('a', load)).toEqual({ id: 'row', version: 1 });
    expect(await rows.get('a', load)).toEqual({ id: 'row', version: 1 });
    expect(calls()).toBe(1);
    expect(rows.size).toBe(1);
  });

  it('keys entries apart', async () => {
    const rows = cache();
    expect(await rows.get('a', () => Promise.resolve({ id: 'a', version: 1 }))).toEqual({
      id: 'a',
      version: 1,
    });
    expect(await rows.get('b', () => Promise.resolve({ id: 'b', version: 1 }))).toEqual({
      id: 'b',
      version: 1,
    });
    expect(await rows.get('a', () => Promise.resolve({ id: 'x', version: 9 }))).toEqual({
      id: 'a',
      version: 1,
    });
  });

  it('does not keep a value that `keep` refuses', async () => {
    const rows = cache();
    const { load, calls } = loader();
    const keep = (row: Row) => row.version > 1;
    expect((await rows.get('a', load, { keep })).version).toBe(1);
    expect(rows.size).toBe(0);
    expect((await rows.get('a', load, { keep })).version).toBe(2);
    expect((await rows.get('a', load, { keep })).version).toBe(2);
    expect(calls()).toBe(2);
  });

  it('reloads an entry once its TTL has passed', async () => {
    const now = jest.spyOn(Date, 'now').mockReturnValue(1_000_000);
    const rows = cache({ ttlMs: 1_000 });
    const { load, calls } = loader();
    expect((await rows.get('a', load)).version).toBe(1);
    now.mockReturnValue(1_000_999);
    expect((await rows.get('a', load)).version).toBe(1);
    now.mockReturnValue(1_001_000);
    expect((await rows.get('a', load)).version).toBe(2);
    expect(calls()).toBe(2);
    now.mockReturnValue(1_001_500);
    expect((await rows.get('a', load)).version).toBe(2);
  });

  it('drop(tag) drops only the entries under that tag, the key by default', async () => {
    const rows = cache();
    const a = loader('a');
    const b = loader('b');
    await rows.get('a', a.load);
    await rows.get('b', b.load);
    rows.drop('a');
    expect(rows.size).toBe(1);
    expect((await rows.get('a', a.load)).version).toBe(2);
    expect((await rows.get('b', b.load)).version).toBe(1);
    rows.drop('unknown');
    expect(rows.size).toBe(2);
  });

  it('drop(tag) finds entries tagged by `tagOf` the value, not by their key', async () => {
    const rows = cache();
    const tagOf = (row: Row) => row.id;
    // Two keys (say, two secret hashes) whose rows carry the same id, and one with another id.
    const first = loader('key-1');
    const second = loader('key-1');
    const other = loader('key-2');
    await rows.get('hash-a', first.load, { tagOf });
    await rows.get('hash-b', second.load, { tagOf });
    await rows.get('hash-c', other.load, { tagOf });
    rows.drop('hash-a');
    expect(rows.size).toBe(3);
    rows.drop('key-1');
    expect(rows.size).toBe(1);
    expect((await rows.get('hash-a', first.load, { tagOf })).version).toBe(2);
    expect((await rows.get('hash-b', second.load, { tagOf })).version).toBe(2);
    expect((await rows.get('hash-c', other.load, { tagOf })).version).toBe(1);
  });

  it('drop() drops every entry', async () => {
    const rows = cache();
    const a = loader('a');
    const b = loader('b');
    await rows.get('a', a.load, { tagOf: () => 'tag-a' });
    await rows.get('b', b.load);
    rows.drop();
    expect(rows.size).toBe(0);
    expect((await rows.get('a', a.load)).version).toBe(2);
    expect((await rows.get('b', b.load)).version).toBe(2);
  });

  it.each([
    ['drop(tag) of the entry', (rows: InvalidatedCache<Row>) => rows.drop('a')],
    ['drop(tag) of another entry', (rows: InvalidatedCache<Row>) => rows.drop('elsewhere')],
    ['drop()', (rows: InvalidatedCache<Row>) => rows.drop()],
  ])('returns but does not keep a load that raced %s', async (_, invalidate) => {
    const rows = cache();
    let release!: (row: Row) => void;
    const slow = () => new Promise<Row>((resolve) => (release = resolve));
    const pending = rows.get('a', slow);
    invalidate(rows);
    release({ id: 'a', version: 1 });
    expect(await pending).toEqual({ id: 'a', version: 1 });
    expect(rows.size).toBe(0);
    const { load, calls } = loader('a');
    expect((await rows.get('a', load)).version).toBe(1);
    expect(calls()).toBe(1);
    // A load that starts after the invalidation is kept again.
    expect((await rows.get('a', load)).version).toBe(1);
    expect(calls()).toBe(1);
  });

  it('neither serves nor keeps entries while not live', async () => {
    let live = true;
    const rows = cache({ live: () => live });
    const { load, calls } = loader();
    expect((await rows.get('a', load)).version).toBe(1);
    live = false;
    expect((await rows.get('a', load)).version).toBe(2);
    expect((await rows.get('a', load)).version).toBe(3);
    expect((await rows.get('b', load)).version).toBe(4);
    expect(calls()).toBe(4);
    expect(rows.size).toBe(1);
  });

  it('does not keep a load that finished after the cache stopped being live', async () => {
    let live = true;
    const rows = cache({ live: () => live });
    let release!: (row: Row) => void;
    const pending = rows.get('a', () => new Promise<Row>((resolve) => (release = resolve)));
    live = false;
    release({ id: 'a', version: 1 });
    expect((await pending).version).toBe(1);
    expect(rows.size).toBe(0);
  });

  it('evicts the oldest entry beyond maxEntries', async () => {
    const rows = cache({ maxEntries: 2 });
    const a = loader('a');
    const b = loader('b');
    const c = loader('c');
    await rows.get('a', a.load);
    await rows.get('b', b.load);
    await rows.get('c', c.load);
    expect(rows.size).toBe(2);
    expect((await rows.get('b', b.load)).version).toBe(1);
    expect((await rows.get('c', c.load)).version).toBe(1);
    expect((await rows.get('a', a.load)).version).toBe(2);
    // Reloading 'a' evicted 'b', now the oldest.
    expect((await rows.get('c', c.load)).version).toBe(1);
    expect((await rows.get('b', b.load)).version).toBe(2);
  });

  it('counts a reloaded entry as the newest when evicting', async () => {
    const now = jest.spyOn(Date, 'now').mockReturnValue(0);
    const rows = cache({ maxEntries: 2, ttlMs: 10 });
    const a = loader('a');
    const b = loader('b');
    const c = loader('c');
    await rows.get('a', a.load); // expires at 10
    now.mockReturnValue(5);
    await rows.get('b', b.load); // expires at 15
    now.mockReturnValue(12);
    expect((await rows.get('a', a.load)).version).toBe(2); // expired: reloaded, stored after 'b'
    await rows.get('c', c.load); // evicts 'b', now the oldest
    expect((await rows.get('a', a.load)).version).toBe(2);
    expect((await rows.get('b', b.load)).version).toBe(2);
    expect(rows.size).toBe(2);
  });
});
