import { queryOptions } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';

export const statsQuery = queryOptions({
  queryKey: ['stats'],
  queryFn: () => unwrap(api.GET('/api/stats')),
});
