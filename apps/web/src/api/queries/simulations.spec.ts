import { beforeAll, describe, expect, it, jest } from '@jest/globals';
import { QueryClient, QueryObserver } from '@tanstack/react-query';

// The typed client reads the page's origin when it loads; the spec's queryFn never calls it.
Object.assign(globalThis, { window: { location: { origin: 'http://localhost' } } });
let simulationDisagreementsQuery: typeof import('./simulations').simulationDisagreementsQuery;

beforeAll(async () => {
  ({ simulationDisagreementsQuery } = await import('./simulations'));
});

describe('simulationDisagreementsQuery', () => {
  it('reads the disagreements again when the judged count moves, the last one before completion too', async () => {
    const queryClient = new QueryClient();
    let judged = 1;
    const queryFn = jest.fn(async () => ({ items: [], total: judged }));
    const options = (completed: number) => ({
      ...simulationDisagreementsQuery({ id: 'sim', completed }, 'department'),
      queryFn,
    });
    const observer = new QueryObserver(queryClient, options(1));
    const results: unknown[] = [];
    const unsubscribe = observer.subscribe((result) => results.push(result.data));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(queryFn).toHaveBeenCalledTimes(1);
    results.length = 0;

    // The simulation's poll sees its last ticket judged and its status completed, and nothing polls
    // the disagreements any more: the new count alone must read them again.
    judged = 2;
    observer.setOptions(options(2));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(queryFn).toHaveBeenCalledTimes(2);
    expect(observer.getCurrentResult().data).toEqual({ items: [], total: 2 });
    // Meanwhile the previous page stayed shown rather than a loading state.
    expect(results).toEqual([
      { items: [], total: 1 },
      { items: [], total: 2 },
    ]);
    unsubscribe();
    queryClient.clear();
  });

  it('polls nothing by itself', () => {
    const options = simulationDisagreementsQuery({ id: 'sim', completed: 1 }, null);
    expect('refetchInterval' in options).toBe(false);
  });
});
