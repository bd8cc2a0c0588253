import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';

/** Query keys of the datasets area; `datasetKeys.all` covers every one of them. */
export const datasetKeys = {
  all: ['datasets'] as const,
  list: ['datasets', 'list'] as const,
  one: (datasetId: string) => ['datasets', 'one', datasetId] as const,
  tickets: (datasetId: string) => ['datasets', 'tickets', datasetId] as const,
};

export function useDatasets() {
  return useQuery({
    queryKey: datasetKeys.list,
    queryFn: async () => (await unwrap(api.GET('/api/datasets'))).items,
  });
}

export function useDataset(datasetId: string) {
  return useQuery({
    queryKey: datasetKeys.one(datasetId),
    queryFn: () => unwrap(api.GET('/api/datasets/{datasetId}', { params: { path: { datasetId } } })),
  });
}
