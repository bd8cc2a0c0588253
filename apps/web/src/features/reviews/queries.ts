import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';

/** Your packs (`GET /api/packs`). */
export function usePacks() {
  return useQuery({ queryKey: ['packs'], queryFn: () => unwrap(api.GET('/api/packs')) });
}

/** One pack with its draft and live documents (`GET /api/packs/{packId}`); idle without an id. */
export function usePack(packId: string | undefined) {
  return useQuery({
    queryKey: ['packs', packId],
    queryFn: () => unwrap(api.GET('/api/packs/{packId}', { params: { path: { packId: packId! } } })),
    enabled: Boolean(packId),
  });
}

/** One evaluation with its redacted ticket, result and labels. */
export function useEvaluation(id: string) {
  return useQuery({
    queryKey: ['evaluations', id],
    queryFn: () => unwrap(api.GET('/api/evaluations/{id}', { params: { path: { id } } })),
  });
}
