import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap, type Schemas } from '../client';

type Source = Schemas['EvaluationSummaryDto']['source'];

/** Query keys of the dashboard's figures: `all` for every variant, `of` for one `source` filter. */
export const statsKeys = {
  all: ['stats'] as const,
  of: (source: readonly Source[] | undefined) => ['stats', source ?? 'every source'] as const,
};

/**
 * The dashboard's figures, of some sources (left out: every source); also started early when the
 * app opens on the dashboard.
 */
export function statsQuery(source?: readonly Source[]) {
  return queryOptions({
    queryKey: statsKeys.of(source),
    queryFn: () =>
      unwrap(api.GET('/api/stats', { params: { query: source ? { source: [...source] } : {} } })),
  });
}

export function useStats(source?: readonly Source[]) {
  return useQuery(statsQuery(source));
}
