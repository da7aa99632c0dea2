/**
 * Runs a form's submit so a double tap never sends twice: calls within the debounce window, or
 * while the previous call is still pending, are dropped. `pending` drives the button's loading
 * state, and it always ends, whatever the call's outcome.
 */
import { useCallback, useRef, useState } from 'react';
import { UI } from '@bourse/shared';

export function useSubmit<A extends unknown[]>(
  run: (...args: A) => Promise<void>,
): { submit: (...args: A) => Promise<void>; pending: boolean } {
  const [pending, setPending] = useState(false);
  const busy = useRef(false);
  const lastAt = useRef(0);
  const submit = useCallback(
    async (...args: A) => {
      const now = Date.now();
      if (busy.current || now - lastAt.current < UI.debounceMs) return;
      busy.current = true;
      lastAt.current = now;
      setPending(true);
      try {
        await run(...args);
      } catch {
        // The request client has told the user; the form stays as it was for another try.
      } finally {
        busy.current = false;
        setPending(false);
      }
    },
    [run],
  );
  return { submit, pending };
}
