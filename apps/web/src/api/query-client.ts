import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './client';

/** The app's one query client: pages read from it, and routes may start their queries early. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 15_000,
      // A refusal (4xx) will not change on a retry; a network blip might.
      retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
    },
  },
});
