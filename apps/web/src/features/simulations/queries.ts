import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import { isActive } from './simulations';

/**
 * Mantine 9 keeps a closed Select's listbox mounted (hidden) and labelled by the Select's label, so
 * "the field labelled Pack" would name two elements; mounting it only while open keeps it to one.
 */
export const ONE_LISTBOX = { keepMounted: false };

/** Query keys of the simulations area. */
export const simulationKeys = {
  list: ['simulations', 'list'] as const,
  one: (id: string) => ['simulations', 'one', id] as const,
  compare: (id: string, otherId: string) => ['simulations', 'compare', id, otherId] as const,
  evaluations: (id: string, status: string) => ['simulations', 'evaluations', id, status] as const,
  packs: ['simulations', 'packs'] as const,
  versions: (packId: string) => ['simulations', 'pack-versions', packId] as const,
};

/** Your simulations, newest first; refreshed every few seconds while one is still moving. */
export function useSimulations() {
  return useQuery({
    queryKey: simulationKeys.list,
    queryFn: async () => (await unwrap(api.GET('/api/simulations'))).items,
    refetchInterval: (query) => (query.state.data?.some((item) => isActive(item.status)) ? 3000 : false),
  });
}

/** One simulation, polled every second while queued or running, then left alone. */
export function useSimulation(id: string, enabled = true) {
  return useQuery({
    queryKey: simulationKeys.one(id),
    queryFn: () => unwrap(api.GET('/api/simulations/{id}', { params: { path: { id } } })),
    enabled,
    staleTime: (query) => (query.state.data && !isActive(query.state.data.status) ? Infinity : 0),
    refetchInterval: (query) => (query.state.data && isActive(query.state.data.status) ? 1000 : false),
  });
}

export function usePacks() {
  return useQuery({ queryKey: simulationKeys.packs, queryFn: () => unwrap(api.GET('/api/packs')) });
}

export function usePackVersions(packId: string | null) {
  return useQuery({
    queryKey: simulationKeys.versions(packId ?? ''),
    queryFn: () => unwrap(api.GET('/api/packs/{packId}/versions', { params: { path: { packId: packId! } } })),
    enabled: !!packId,
    staleTime: 0,
  });
}
