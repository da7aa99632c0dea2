/** The console's one TanStack Query client. */
import { QueryClient } from '@tanstack/react-query';
import { ApiError } from '../api/client';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // A refusal (4xx) stays one; a network failure or a fault is tried again twice.
      retry: (count, error) =>
        count < 2 && !(error instanceof ApiError && error.status >= 400 && error.status < 500),
      staleTime: 5_000,
    },
  },
});
