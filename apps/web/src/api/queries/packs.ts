import { useQueries, useQuery, type QueryClient } from '@tanstack/react-query';
import { api, unwrap, type Schemas } from '../client';
import { calibrationKeys } from './calibration';
import { useApiMutation, type Effects } from './mutation';
import { shadowKeys } from './shadow';

type Pack = Schemas['PackDto'];

/** Query keys of packs; `packKeys.all` covers every one of them. */
export const packKeys = {
  all: ['packs'] as const,
  list: ['packs', 'list'] as const,
  one: (packId: string) => ['packs', 'one', packId] as const,
  versions: (packId: string) => ['packs', 'versions', packId] as const,
  version: (packId: string, versionId: string) => ['packs', 'version', packId, versionId] as const,
  compare: (packId: string, from: string, to: string) => ['packs', 'compare', packId, from, to] as const,
  export: (packId: string) => ['packs', 'export', packId] as const,
  audit: (packId: string) => ['packs', 'audit', packId] as const,
};

/**
 * After any change to a pack: its new state is stored, and everything else about packs (the list,
 * versions, comparisons) is stale, wherever it is shown. So are the calibration reports and threshold
 * previews (a publish changes the live version they read) and the pack's shadow runs (`matchesDraft`
 * follows the draft): a cached runs list that nothing shows is dropped, so the publish dialog never
 * draws a summary of a run that matched the draft before the edit.
 */
export async function settlePacks(queryClient: QueryClient, pack?: Pack): Promise<void> {
  if (pack) queryClient.setQueryData(packKeys.one(pack.id), pack);
  const kept = pack ? JSON.stringify(packKeys.one(pack.id)) : undefined;
  const runs = pack ? shadowKeys.list(pack.id) : shadowKeys.all;
  queryClient.removeQueries({ queryKey: runs, type: 'inactive' });
  await Promise.all([
    queryClient.invalidateQueries({
      queryKey: packKeys.all,
      predicate: (query) => JSON.stringify(query.queryKey) !== kept,
    }),
    queryClient.invalidateQueries({ queryKey: calibrationKeys.all }),
    queryClient.invalidateQueries({ queryKey: runs }),
  ]);
}

/** After a pack is deleted: the list is stale, and the pack's own queries go once nothing shows them. */
async function settleDeletedPack(queryClient: QueryClient, packId: string): Promise<void> {
  // As for a deleted dataset: the list page must not draw a cached copy holding the deleted pack.
  queryClient.removeQueries({ queryKey: packKeys.list, exact: true, type: 'inactive' });
  await queryClient.invalidateQueries({ queryKey: packKeys.list });
  queryClient.removeQueries({ queryKey: packKeys.one(packId), type: 'inactive' });
}

export function usePacks() {
  return useQuery({ queryKey: packKeys.list, queryFn: () => unwrap(api.GET('/api/packs')) });
}

/** One pack with its draft and live documents; idle without an id. */
export function usePack(packId: string | null | undefined) {
  return useQuery({
    queryKey: packKeys.one(packId ?? ''),
    queryFn: () => unwrap(api.GET('/api/packs/{packId}', { params: { path: { packId: packId! } } })),
    enabled: Boolean(packId),
  });
}

function packVersionsQuery(packId: string | null | undefined) {
  return {
    queryKey: packKeys.versions(packId ?? ''),
    queryFn: () => unwrap(api.GET('/api/packs/{packId}/versions', { params: { path: { packId: packId! } } })),
    enabled: Boolean(packId),
  };
}

export function usePackVersions(packId: string | null | undefined) {
  return useQuery(packVersionsQuery(packId));
}

/** The versions of several packs at once (a list naming each row's version), by pack id. */
export function usePacksVersions(packIds: readonly string[]) {
  return useQueries({
    queries: packIds.map(packVersionsQuery),
    combine: (results) =>
      new Map(packIds.flatMap((id, i) => (results[i]?.data ? [[id, results[i].data] as const] : []))),
  });
}

/** One version's document; idle while `enabled` is false (the pack already holds it). */
export function usePackVersionDocument(packId: string, versionId: string | null, enabled: boolean) {
  return useQuery({
    queryKey: packKeys.version(packId, versionId ?? ''),
    queryFn: async () =>
      (
        await unwrap(
          api.GET('/api/packs/{packId}/versions/{versionId}', {
            params: { path: { packId, versionId: versionId! } },
          }),
        )
      ).document,
    enabled: Boolean(versionId) && enabled,
    // Published versions never change.
    staleTime: Infinity,
  });
}

export function usePackComparison(packId: string, from: string | null, to: string | null) {
  return useQuery({
    queryKey: packKeys.compare(packId, from ?? '', to ?? ''),
    queryFn: () =>
      unwrap(
        api.GET('/api/packs/{packId}/compare', {
          params: { path: { packId }, query: { from: from!, to: to! } },
        }),
      ),
    enabled: Boolean(from && to),
  });
}

export function useCreatePack(effects?: Effects<Pack, Schemas['CreatePackDto']>) {
  return useApiMutation(
    (body: Schemas['CreatePackDto']) => unwrap(api.POST('/api/packs', { body })),
    settlePacks,
    effects,
  );
}

export function useImportPack(effects?: Effects<Pack, Schemas['ImportPackDto']>) {
  return useApiMutation(
    (body: Schemas['ImportPackDto']) => unwrap(api.POST('/api/packs/import', { body })),
    settlePacks,
    effects,
  );
}

/** Saves the draft (name and document). */
export function useSaveDraft(packId: string, effects?: Effects<Pack, Schemas['UpdatePackDto']>) {
  return useApiMutation(
    (body: Schemas['UpdatePackDto']) =>
      unwrap(api.PATCH('/api/packs/{packId}', { params: { path: { packId } }, body })),
    settlePacks,
    effects,
  );
}

/** Reads the pack afresh, changes its draft document with `edit`, saves it. */
export function useEditDraftDocument<TVars>(
  packId: string,
  edit: (document: Pack['document'], vars: TVars) => Pack['document'],
  effects?: Effects<Pack, TVars>,
) {
  return useApiMutation(
    async (vars: TVars) => {
      const pack = await unwrap(api.GET('/api/packs/{packId}', { params: { path: { packId } } }));
      const document = edit(pack.document, vars);
      return unwrap(api.PATCH('/api/packs/{packId}', { params: { path: { packId } }, body: { document } }));
    },
    settlePacks,
    effects,
  );
}

export function usePublishPack(packId: string, effects?: Effects<Pack, void>) {
  return useApiMutation(
    () => unwrap(api.POST('/api/packs/{packId}/publish', { params: { path: { packId } } })),
    settlePacks,
    effects,
  );
}

/** Rollback: a version's document replaces the draft's (nothing is published). */
export function useRestoreVersion(packId: string, effects?: Effects<Pack, string>) {
  return useApiMutation(
    (versionId: string) =>
      unwrap(
        api.POST('/api/packs/{packId}/versions/{versionId}/restore', {
          params: { path: { packId, versionId } },
        }),
      ),
    settlePacks,
    effects,
  );
}

export function useDeletePack(packId: string, effects?: Effects<unknown, void>) {
  return useApiMutation(
    () => unwrap(api.DELETE('/api/packs/{packId}', { params: { path: { packId } } })),
    (queryClient) => settleDeletedPack(queryClient, packId),
    effects,
  );
}

/** The draft as an importable document; a read, started by a click. */
export function useExportPack(packId: string, effects?: Effects<Schemas['PackExportDto'], void>) {
  return useApiMutation(
    () => unwrap(api.GET('/api/packs/{packId}/export', { params: { path: { packId } } })),
    () => undefined,
    effects,
  );
}

type AuditSettings = Schemas['AuditSettingsDto'];

/** The pack's audit sampling settings (`{rate, strategy}`). */
export function usePackAudit(packId: string) {
  return useQuery({
    queryKey: packKeys.audit(packId),
    queryFn: () => unwrap(api.GET('/api/packs/{packId}/audit', { params: { path: { packId } } })),
  });
}

/** Saves the audit settings; the answer is the saved settings. */
export function useSetPackAudit(packId: string, effects?: Effects<AuditSettings, AuditSettings>) {
  return useApiMutation(
    (body: AuditSettings) =>
      unwrap(api.PUT('/api/packs/{packId}/audit', { params: { path: { packId } }, body })),
    (queryClient, settings) => queryClient.setQueryData(packKeys.audit(packId), settings),
    effects,
  );
}
