import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { api, unwrap, type Schemas } from '../client';
import { useApiMutation, type Effects } from './mutation';

type ShadowRun = Schemas['ShadowRunDto'];
type ShadowRunDetail = Schemas['ShadowRunDetailDto'];

/** How often an active run's report is read again. */
const ACTIVE_POLL_MS = 3000;

/** Query keys of shadow runs: a pack's list, and one run with its report. */
export const shadowKeys = {
  all: ['shadow-runs'] as const,
  list: (packId: string) => ['shadow-runs', 'list', packId] as const,
  one: (id: string) => ['shadow-runs', 'one', id] as const,
};

/**
 * After a run is started or stopped: its pack's list is stale, and so is the run (a stop's answer
 * is stored as it comes, with its report).
 */
async function settleShadowRuns(queryClient: QueryClient, run: ShadowRun | ShadowRunDetail): Promise<void> {
  if ('report' in run) queryClient.setQueryData(shadowKeys.one(run.id), run);
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: shadowKeys.list(run.packId) }),
    queryClient.invalidateQueries({ queryKey: shadowKeys.one(run.id) }),
  ]);
}

/**
 * The pack's shadow runs, newest first; polled while one is active (it may stop by itself at its
 * cap). Always read afresh on mount: `matchesDraft` follows every edit of the draft, made here
 * (`settlePacks` makes the list stale) or elsewhere.
 */
export function useShadowRuns(packId: string) {
  return useQuery({
    queryKey: shadowKeys.list(packId),
    queryFn: async () =>
      (await unwrap(api.GET('/api/packs/{packId}/shadow-runs', { params: { path: { packId } } }))).items,
    staleTime: 0,
    refetchInterval: (query) =>
      query.state.data?.some((run) => run.status === 'active') ? ACTIVE_POLL_MS : false,
  });
}

/** One run with its report; polled every few seconds while active, then left alone. */
export function useShadowRun(id: string | null | undefined) {
  return useQuery({
    queryKey: shadowKeys.one(id ?? ''),
    queryFn: () => unwrap(api.GET('/api/shadow-runs/{id}', { params: { path: { id: id! } } })),
    enabled: Boolean(id),
    staleTime: (query) => (query.state.data?.status === 'stopped' ? Infinity : 0),
    refetchInterval: (query) => (query.state.data?.status === 'active' ? ACTIVE_POLL_MS : false),
  });
}

/**
 * Starts a run. A 409 `shadow run already active` means the list is behind (a run started elsewhere):
 * it is read again, so the page shows that run.
 */
export function useStartShadowRun(
  packId: string,
  effects?: Effects<ShadowRun, Schemas['StartShadowRunDto']>,
) {
  const queryClient = useQueryClient();
  return useApiMutation(
    (body: Schemas['StartShadowRunDto']) =>
      unwrap(api.POST('/api/packs/{packId}/shadow-runs', { params: { path: { packId } }, body })),
    settleShadowRuns,
    {
      ...effects,
      onError: async (error, vars) => {
        await queryClient.invalidateQueries({ queryKey: shadowKeys.list(packId) });
        await effects?.onError?.(error, vars);
      },
    },
  );
}

/** Stops a run; its report is kept. */
export function useStopShadowRun(id: string, effects?: Effects<ShadowRunDetail, void>) {
  return useApiMutation(
    () => unwrap(api.POST('/api/shadow-runs/{id}/stop', { params: { path: { id } } })),
    settleShadowRuns,
    effects,
  );
}
