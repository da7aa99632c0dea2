/** The providers and the router. */
import { useEffect } from 'react';
import { RouterProvider } from 'react-router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { onRelaunch } from '../lib/navigation';
import { router } from './router';
import { startLaunch } from './launch';

const queryClient = new QueryClient({
  defaultOptions: {
    // The request client has already told the user about a failure; retrying would tell again.
    queries: { retry: false, staleTime: 10_000, refetchOnWindowFocus: false },
    mutations: { retry: false },
  },
});

/**
 * Starts the launch calls (spec section 4). main.tsx calls it before the first render, so the
 * calls (the launch pop-up's among them) travel while React renders the first screen.
 */
export function startApp(): void {
  startLaunch(queryClient);
}

export function App() {
  useEffect(() => {
    // Relaunching starts the app over: cached screen data goes and the launch calls run again.
    return onRelaunch(() => {
      queryClient.clear();
      startLaunch(queryClient);
    });
  }, []);
  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  );
}
