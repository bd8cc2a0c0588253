import { describe, expect, it } from '@jest/globals';
import {
  daysReversed,
  evaluationCount,
  exportHref,
  filtersToParams,
  listQuery,
  readFilters,
} from './evaluations';

const LIVE = ['api', 'webhook', 'mcp'];

describe('evaluation filters', () => {
  it('reads the URL, dropping what is unknown or empty, and writes it back without defaults', () => {
    const params = new URLSearchParams(
      'packId=p&packVersionId=v&status=review&experiments=true&from=2026-01-02&to=2026-01-31&q=%20refund%20&order=oldest',
    );
    const filters = readFilters(params);
    expect(filters).toEqual({
      packId: 'p',
      packVersionId: 'v',
      status: 'review',
      experiments: true,
      fromDay: '2026-01-02',
      toDay: '2026-01-31',
      q: 'refund',
      order: 'oldest',
    });
    expect(filtersToParams(filters).toString()).toBe(
      'packId=p&packVersionId=v&status=review&experiments=true&from=2026-01-02&to=2026-01-31&q=refund&order=oldest',
    );
    const odd = readFilters(
      new URLSearchParams('packVersionId=v&status=maybe&from=yesterday&to=2026-13-45&q=%20&order=x'),
    );
    expect(odd).toEqual({ experiments: false, order: 'newest' });
    expect(filtersToParams(odd).toString()).toBe('');
  });

  it('asks the API for live sources by default, every source with the experiments', () => {
    expect(listQuery(readFilters(new URLSearchParams()))).toEqual({ source: LIVE });
    expect(listQuery(readFilters(new URLSearchParams('experiments=true')))).toEqual({});
  });

  it('turns days into instants of the local zone, the last day included (to is the next midnight)', () => {
    const query = listQuery(readFilters(new URLSearchParams('from=2026-01-02&to=2026-01-02')));
    expect(query.from).toBe(new Date('2026-01-02T00:00:00').toISOString());
    expect(query.to).toBe(new Date('2026-01-03T00:00:00').toISOString());
    expect(daysReversed(readFilters(new URLSearchParams('from=2026-01-03&to=2026-01-02')))).toBe(true);
    expect(daysReversed(readFilters(new URLSearchParams('from=2026-01-02&to=2026-01-02')))).toBe(false);
  });

  it('links the CSV export with the same filters, sources repeated, and never a cursor', () => {
    const query = listQuery(readFilters(new URLSearchParams('packId=p&q=a%26b&order=oldest')));
    expect(exportHref(query)).toBe(
      '/api/evaluations/export?packId=p&source=api&source=webhook&source=mcp&q=a%26b&order=oldest',
    );
    expect(exportHref({ ...query, cursor: 'c' } as never)).not.toContain('cursor');
    expect(exportHref({})).toBe('/api/evaluations/export');
  });

  it('counts as Reviews does: exact, or the cap and a plus', () => {
    expect(evaluationCount(1, false)).toBe('1 evaluation');
    expect(evaluationCount(1234, false)).toBe('1,234 evaluations');
    expect(evaluationCount(10_000, true)).toBe('10,000+ evaluations');
    expect(evaluationCount(0, false)).toBe('0 evaluations');
  });
});
