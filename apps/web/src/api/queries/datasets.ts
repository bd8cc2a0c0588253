import { useInfiniteQuery, useQuery, type QueryClient } from '@tanstack/react-query';
import { api, unwrap, type Schemas } from '../client';
import { useApiMutation, type Effects } from './mutation';

/** Query keys of datasets; `datasetKeys.all` covers every one of them. */
export const datasetKeys = {
  all: ['datasets'] as const,
  list: ['datasets', 'list'] as const,
  one: (datasetId: string) => ['datasets', 'one', datasetId] as const,
  tickets: (datasetId: string) => ['datasets', 'tickets', datasetId] as const,
};

/** After a dataset is created or gets tickets: stored if given, and every dataset query is stale. */
async function settleDatasets(queryClient: QueryClient, dataset?: Schemas['DatasetDto']): Promise<void> {
  if (dataset) queryClient.setQueryData(datasetKeys.one(dataset.id), dataset);
  await queryClient.invalidateQueries({ queryKey: dataset ? datasetKeys.list : datasetKeys.all });
}

/** After a dataset is deleted: the list is stale, its own queries go once nothing shows them. */
async function settleDeletedDataset(queryClient: QueryClient, datasetId: string): Promise<void> {
  // The list is not on screen (the dataset's page is), so invalidating it would only mark it stale and
  // the list page would first draw the cached copy, deleted dataset included: drop that copy instead.
  queryClient.removeQueries({ queryKey: datasetKeys.list, exact: true, type: 'inactive' });
  await queryClient.invalidateQueries({ queryKey: datasetKeys.list });
  queryClient.removeQueries({ queryKey: datasetKeys.one(datasetId), type: 'inactive' });
  queryClient.removeQueries({ queryKey: datasetKeys.tickets(datasetId), type: 'inactive' });
}

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

/** The dataset's stored (redacted) tickets, a page at a time. */
export function useDatasetTickets(datasetId: string) {
  return useInfiniteQuery({
    queryKey: datasetKeys.tickets(datasetId),
    queryFn: ({ pageParam }) =>
      unwrap(
        api.GET('/api/datasets/{datasetId}/tickets', {
          params: { path: { datasetId }, query: pageParam ? { cursor: pageParam } : {} },
        }),
      ),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
  });
}

export function useCreateDataset(effects?: Effects<Schemas['DatasetDto'], Schemas['CreateDatasetDto']>) {
  return useApiMutation(
    (body: Schemas['CreateDatasetDto']) => unwrap(api.POST('/api/datasets', { body })),
    settleDatasets,
    effects,
  );
}

/** Adds tickets with `upload` (a file's own way of posting them). */
export function useUploadTickets<TVars>(
  upload: (vars: TVars) => Promise<Schemas['UploadResultDto']>,
  effects?: Effects<Schemas['UploadResultDto'], TVars>,
) {
  return useApiMutation(upload, (queryClient) => settleDatasets(queryClient), effects);
}

export function useDeleteDataset(datasetId: string, effects?: Effects<unknown, void>) {
  return useApiMutation(
    () => unwrap(api.DELETE('/api/datasets/{datasetId}', { params: { path: { datasetId } } })),
    (queryClient) => settleDeletedDataset(queryClient, datasetId),
    effects,
  );
}

/** Deletes one ticket: the dataset's count and its ticket pages are stale (every dataset query is). */
export function useDeleteDatasetTicket(
  datasetId: string,
  ticketId: string,
  effects?: Effects<unknown, void>,
) {
  return useApiMutation(
    () =>
      unwrap(
        api.DELETE('/api/datasets/{datasetId}/tickets/{ticketId}', {
          params: { path: { datasetId, ticketId } },
        }),
      ),
    (queryClient) => settleDatasets(queryClient),
    effects,
  );
}
