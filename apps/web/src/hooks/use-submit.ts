/**
 * Runs a form's submit so a double tap never sends twice: a call while the previous one is still
 * pending is dropped, and so is a repeat of the same call (the same arguments, for a form the same
 * field values) within the debounce window. A call with something changed is sent at once, however
 * soon: a user who corrects a wrong password and taps again is never silently ignored (a fast
 * answer and a quick retype put the second tap within 300 ms of the first; dropping it left the
 * screen doing nothing). `pending` drives the button's loading state, and it always ends,
 * whatever the call's outcome.
 */
import { useCallback, useRef, useState } from 'react';
import { UI } from '@bourse/shared';

function sameArguments(previous: readonly unknown[] | undefined, next: readonly unknown[]) {
  return (
    previous !== undefined &&
    previous.length === next.length &&
    previous.every((value, index) => Object.is(value, next[index]))
  );
}

export function useSubmit<A extends unknown[]>(
  run: (...args: A) => Promise<void>,
): { submit: (...args: A) => Promise<void>; pending: boolean } {
  const [pending, setPending] = useState(false);
  const busy = useRef(false);
  const lastAt = useRef(0);
  const lastArgs = useRef<readonly unknown[] | undefined>(undefined);
  const submit = useCallback(
    async (...args: A) => {
      const now = Date.now();
      if (busy.current) return;
      if (sameArguments(lastArgs.current, args) && now - lastAt.current < UI.debounceMs) return;
      busy.current = true;
      lastAt.current = now;
      lastArgs.current = args;
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
