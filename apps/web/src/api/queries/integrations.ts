import { useInfiniteQuery, useQuery, type QueryClient } from '@tanstack/react-query';
import { api, unwrap, type Schemas } from '../client';
import { useApiMutation, type Effects } from './mutation';
import { statsKeys } from './stats';

/** Query keys of the integrations: API keys, the completion endpoint, deliveries, MCP clients. */
export const integrationKeys = {
  apiKeys: ['app-keys'] as const,
  endpoints: ['webhook-endpoints'] as const,
  deliveries: ['webhook-deliveries'] as const,
  mcpClients: ['oauth-clients'] as const,
};

const settleApiKeys = (queryClient: QueryClient) =>
  queryClient.invalidateQueries({ queryKey: integrationKeys.apiKeys });
const settleEndpoints = (queryClient: QueryClient) =>
  queryClient.invalidateQueries({ queryKey: integrationKeys.endpoints });
/** A redelivery changes the delivery list and the dashboard's failure count. */
const settleDeliveries = (queryClient: QueryClient) =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: integrationKeys.deliveries }),
    queryClient.invalidateQueries({ queryKey: statsKeys.all }),
  ]);
/** A test event is sent and reported, never stored: no query goes stale. */
const settleEndpointTest = () => undefined;
const settleMcpClients = (queryClient: QueryClient) =>
  queryClient.invalidateQueries({ queryKey: integrationKeys.mcpClients });

export function useApiKeys() {
  return useQuery({ queryKey: integrationKeys.apiKeys, queryFn: () => unwrap(api.GET('/app/keys')) });
}

export function useCreateApiKey(
  effects?: Effects<Schemas['ApiKeyWithSecretDto'], Schemas['CreateApiKeyDto']>,
) {
  return useApiMutation(
    (body: Schemas['CreateApiKeyDto']) => unwrap(api.POST('/app/keys', { body })),
    settleApiKeys,
    effects,
  );
}

export function useRotateApiKey(id: string, effects?: Effects<Schemas['ApiKeyWithSecretDto'], void>) {
  return useApiMutation(
    () => unwrap(api.POST('/app/keys/{id}/rotate', { params: { path: { id } } })),
    settleApiKeys,
    effects,
  );
}

export function useRevokeApiKey(id: string, effects?: Effects<unknown, void>) {
  return useApiMutation(
    () => unwrap(api.DELETE('/app/keys/{id}', { params: { path: { id } } })),
    settleApiKeys,
    effects,
  );
}

export function useWebhookEndpoints() {
  return useQuery({
    queryKey: integrationKeys.endpoints,
    queryFn: () => unwrap(api.GET('/api/webhook-endpoints')),
  });
}

export function useSaveWebhookEndpoint(
  effects?: Effects<Schemas['SavedWebhookEndpointDto'], Schemas['SaveWebhookEndpointDto']>,
) {
  return useApiMutation(
    (body: Schemas['SaveWebhookEndpointDto']) => unwrap(api.POST('/api/webhook-endpoints', { body })),
    settleEndpoints,
    effects,
  );
}

export function useDeleteWebhookEndpoint(id: string, effects?: Effects<unknown, void>) {
  return useApiMutation(
    () => unwrap(api.DELETE('/api/webhook-endpoints/{id}', { params: { path: { id } } })),
    settleEndpoints,
    effects,
  );
}

export function useTestWebhookEndpoint(
  id: string,
  effects?: Effects<Schemas['EndpointTestResultDto'], void>,
) {
  return useApiMutation(
    () => unwrap(api.POST('/api/webhook-endpoints/{id}/test', { params: { path: { id } } })),
    settleEndpointTest,
    effects,
  );
}

export function useDeliveries() {
  return useInfiniteQuery({
    queryKey: integrationKeys.deliveries,
    queryFn: ({ pageParam }) =>
      unwrap(
        api.GET('/api/webhook-deliveries', { params: { query: pageParam ? { cursor: pageParam } : {} } }),
      ),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
  });
}

export function useRedeliver(effects?: Effects<Schemas['RedeliveryDto'], string>) {
  return useApiMutation(
    (id: string) => unwrap(api.POST('/api/webhook-deliveries/{id}/redeliver', { params: { path: { id } } })),
    settleDeliveries,
    effects,
  );
}

export function useMcpClients() {
  return useQuery({
    queryKey: integrationKeys.mcpClients,
    queryFn: () => unwrap(api.GET('/app/oauth-clients')),
  });
}

export function useDisconnectMcpClient(id: string, effects?: Effects<unknown, void>) {
  return useApiMutation(
    () => unwrap(api.DELETE('/app/oauth-clients/{id}', { params: { path: { id } } })),
    settleMcpClients,
    effects,
  );
}
