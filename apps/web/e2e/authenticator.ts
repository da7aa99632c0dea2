/** The browser tests' authenticator app: two-factor codes made from a secret, as otpauth makes them. */
import { TOTP } from 'otpauth';

const STEP_MS = 30_000;

/**
 * An authenticator app for one secret. The server takes each 30-second step's code once and only
 * a step later than the last one used, and accepts the step after the current one (clock drift):
 * each code asked is of the next step, waiting for the clock when it would be two ahead.
 */
export function authenticator(secret: string) {
  const totp = new TOTP({ secret, algorithm: 'SHA1', digits: 6, period: 30 });
  let lastStep = 0;
  return {
    async nextCode(): Promise<string> {
      const current = () => Math.floor(Date.now() / STEP_MS);
      const step = Math.max(current(), lastStep + 1);
      while (step > current() + 1) await new Promise((resolve) => setTimeout(resolve, 500));
      lastStep = step;
      return totp.generate({ timestamp: step * STEP_MS });
    },
  };
}
