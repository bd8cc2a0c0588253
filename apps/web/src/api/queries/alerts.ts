import { useQuery, type QueryClient } from '@tanstack/react-query';
import { api, unwrap, type Schemas } from '../client';
import { useApiMutation, type Effects } from './mutation';

type Alert = Schemas['AlertDto'];

/** Query keys of alerts: `all` for every list, `of` for one pack's (or every pack's) list. */
export const alertKeys = {
  all: ['alerts'] as const,
  of: (packId: string | undefined) => ['alerts', packId ?? 'every pack'] as const,
  rules: (packId: string) => ['alert-rules', packId] as const,
};

/** The alerts of a pack, or of every pack: open first, then newest. */
export function useAlerts(packId?: string) {
  return useQuery({
    queryKey: alertKeys.of(packId),
    queryFn: () => unwrap(api.GET('/api/alerts', { params: { query: packId ? { packId } : {} } })),
  });
}

/** After an acknowledgement every list showing the alert is stale (the dashboard's and its pack's). */
async function settleAlerts(queryClient: QueryClient): Promise<void> {
  await queryClient.invalidateQueries({ queryKey: alertKeys.all });
}

export function useAcknowledgeAlert(effects?: Effects<Alert, string>) {
  return useApiMutation(
    (id: string) => unwrap(api.POST('/api/alerts/{id}/ack', { params: { path: { id } } })),
    settleAlerts,
    effects,
  );
}

type AlertRules = Schemas['AlertRulesDto'];

/** The pack's alert rules, every field (defaults where never set). */
export function useAlertRules(packId: string) {
  return useQuery({
    queryKey: alertKeys.rules(packId),
    queryFn: () => unwrap(api.GET('/api/packs/{packId}/alert-rules', { params: { path: { packId } } })),
  });
}

/** After the rules are saved: the answer is the pack's rules; alerts change only at the worker's next check. */
function settleAlertRules(queryClient: QueryClient, packId: string, rules: AlertRules): void {
  queryClient.setQueryData(alertKeys.rules(packId), rules);
}

/** Saves the pack's alert rules; the answer is the saved rules. */
export function useSetAlertRules(packId: string, effects?: Effects<AlertRules, AlertRules>) {
  return useApiMutation(
    (body: AlertRules) =>
      unwrap(api.PUT('/api/packs/{packId}/alert-rules', { params: { path: { packId } }, body })),
    (queryClient, rules) => settleAlertRules(queryClient, packId, rules),
    effects,
  );
}
