import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';

/** What a page does after a mutation (a notification, a navigation); the cache work is not its job. */
export interface Effects<TData, TVars> {
  onMutate?: (vars: TVars) => unknown;
  onSuccess?: (data: TData, vars: TVars) => unknown;
  onError?: (error: Error, vars: TVars) => unknown;
  onSettled?: () => unknown;
}

/**
 * A mutation of one resource: `settle` is that resource's cache work after a success (the answer
 * stored, the queries it makes stale invalidated), declared beside its query keys; the page's own
 * effects run after it.
 */
export function useApiMutation<TData, TVars = void>(
  mutationFn: (vars: TVars) => Promise<TData>,
  settle: (queryClient: QueryClient, data: TData, vars: TVars) => unknown,
  effects: Effects<TData, TVars> = {},
) {
  const queryClient = useQueryClient();
  return useMutation<TData, Error, TVars>({
    mutationFn,
    onMutate: (vars) => {
      effects.onMutate?.(vars);
    },
    onSuccess: async (data, vars) => {
      await settle(queryClient, data, vars);
      await effects.onSuccess?.(data, vars);
    },
    onError: (error, vars) => effects.onError?.(error, vars),
    onSettled: () => effects.onSettled?.(),
  });
}
