import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../client';

export const statsKeys = { all: ['stats'] as const };

/** The dashboard's figures; also started early when the app opens on the dashboard. */
export const statsQuery = queryOptions({
  queryKey: statsKeys.all,
  queryFn: () => unwrap(api.GET('/api/stats')),
});

export function useStats() {
  return useQuery(statsQuery);
}
