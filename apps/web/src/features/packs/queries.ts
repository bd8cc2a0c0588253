import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';

/** Query keys and reads shared by the pack pages and the playground. */
export const packKeys = {
  list: ['packs'] as const,
  pack: (packId: string) => ['packs', packId] as const,
  versions: (packId: string) => ['packs', packId, 'versions'] as const,
  compareAll: (packId: string) => ['packs', packId, 'compare'] as const,
  compare: (packId: string, from: string, to: string) => ['packs', packId, 'compare', from, to] as const,
};

export function usePacks() {
  return useQuery({ queryKey: packKeys.list, queryFn: () => unwrap(api.GET('/api/packs')) });
}

export function usePack(packId: string | undefined) {
  return useQuery({
    queryKey: packKeys.pack(packId ?? ''),
    queryFn: () => unwrap(api.GET('/api/packs/{packId}', { params: { path: { packId: packId! } } })),
    enabled: Boolean(packId),
  });
}

export function usePackVersions(packId: string | undefined) {
  return useQuery({
    queryKey: packKeys.versions(packId ?? ''),
    queryFn: () => unwrap(api.GET('/api/packs/{packId}/versions', { params: { path: { packId: packId! } } })),
    enabled: Boolean(packId),
  });
}
