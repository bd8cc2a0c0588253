import { beforeAll, describe, expect, it, jest } from '@jest/globals';
import { QueryClient, QueryObserver } from '@tanstack/react-query';
import type { Schemas } from '../client';

// The typed client reads the page's origin when it loads; settling the cache never calls it.
Object.assign(globalThis, { window: { location: { origin: 'http://localhost' } } });
let calibrationKeys: typeof import('./calibration').calibrationKeys;
let packKeys: typeof import('./packs').packKeys;
let settlePacks: typeof import('./packs').settlePacks;
let shadowKeys: typeof import('./shadow').shadowKeys;

beforeAll(async () => {
  ({ calibrationKeys } = await import('./calibration'));
  ({ packKeys, settlePacks } = await import('./packs'));
  ({ shadowKeys } = await import('./shadow'));
});

const pack = { id: 'pack-a' } as Schemas['PackDto'];

function seeded(): QueryClient {
  const queryClient = new QueryClient();
  queryClient.setQueryData(packKeys.list, []);
  queryClient.setQueryData(calibrationKeys.report('pack-a', 0.95), {});
  queryClient.setQueryData(calibrationKeys.preview('pack-a', 'department', 0.8), {});
  queryClient.setQueryData(shadowKeys.list('pack-a'), [{ id: 'run', matchesDraft: true }]);
  queryClient.setQueryData(shadowKeys.list('pack-b'), [{ id: 'other', matchesDraft: true }]);
  return queryClient;
}

describe('settlePacks', () => {
  it('stores the pack and makes its list, calibration reports and threshold previews stale', async () => {
    const queryClient = seeded();
    await settlePacks(queryClient, pack);
    expect(queryClient.getQueryData(packKeys.one('pack-a'))).toBe(pack);
    expect(queryClient.getQueryState(packKeys.list)?.isInvalidated).toBe(true);
    expect(queryClient.getQueryState(calibrationKeys.report('pack-a', 0.95))?.isInvalidated).toBe(true);
    expect(
      queryClient.getQueryState(calibrationKeys.preview('pack-a', 'department', 0.8))?.isInvalidated,
    ).toBe(true);
  });

  it("drops the pack's cached shadow runs that nothing shows, and keeps another pack's", async () => {
    const queryClient = seeded();
    await settlePacks(queryClient, pack);
    expect(queryClient.getQueryData(shadowKeys.list('pack-a'))).toBeUndefined();
    expect(queryClient.getQueryState(shadowKeys.list('pack-b'))?.isInvalidated).toBe(false);
  });

  it('makes a shown shadow runs list stale, so it is read again at once', async () => {
    const queryClient = seeded();
    const queryFn = jest.fn(async () => [{ id: 'run', matchesDraft: false }]);
    const observer = new QueryObserver(queryClient, { queryKey: shadowKeys.list('pack-a'), queryFn });
    const unsubscribe = observer.subscribe(() => undefined);
    queryFn.mockClear();
    await settlePacks(queryClient, pack);
    expect(queryFn).toHaveBeenCalled();
    expect(queryClient.getQueryData(shadowKeys.list('pack-a'))).toEqual([{ id: 'run', matchesDraft: false }]);
    unsubscribe();
    queryClient.clear();
  });
});
