/**
 * Two-factor codes in the console's browser tests, made from an operator's secret as an
 * authenticator app makes them (otpauth: SHA-1, 6 digits, 30-second steps). The server takes each
 * step's code once per operator, and only a step later than the last one used; it accepts the
 * step before and after its own. So each code is of the step after the last one used, and not
 * older than the step before the current one, which only while enough of the current step is left
 * for the code to reach the server before its own step moves on (else the current one); when the
 * step is still two ahead of the clock, the code waits for it (at most one step, 30 s: three
 * codes of one operator in a row never wait).
 *
 * Test files are separate module instances run one after another on one server (and the global
 * setup enrols the first admin), so each operator's secret and last step are kept in a file all
 * of them share (`file`, made by the global setup), not in memory, under the operator's `account`
 * (their name at a server's address: the first-sign-in test's server has an `admin` too).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { Secret, TOTP } from 'otpauth';
import { TWO_FACTOR } from '@bourse/shared';

const STEP_MS = TWO_FACTOR.periodSeconds * 1000;

interface Authenticator {
  secret: string;
  /** The last step whose code was used (0: none). */
  lastStep: number;
}

type Authenticators = Record<string, Authenticator>;

function read(file: string): Authenticators {
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Authenticators) : {};
}

function write(file: string, authenticators: Authenticators): void {
  writeFileSync(file, JSON.stringify(authenticators, null, 2));
}

/** The operator linked an app to `secret` (a new one starts its steps again on the server too). */
export function rememberSecret(file: string, account: string, secret: string): void {
  const all = read(file);
  if (all[account]?.secret !== secret) all[account] = { secret, lastStep: 0 };
  write(file, all);
}

/** The secret the operator's app holds, if a test linked one. */
export function secretOf(file: string, account: string): string | undefined {
  return read(file)[account]?.secret;
}

/**
 * A code of the step before the current one is made only while this much of the current step is
 * left: far more than typing it and the server's answer take, even on a loaded machine.
 */
const PAST_STEP_MARGIN_MS = 10_000;

const currentStep = () => Math.floor(Date.now() / STEP_MS);

/** The oldest step whose code the server will still accept when it arrives. */
function oldestUsable(): number {
  const left = STEP_MS - (Date.now() % STEP_MS);
  return left > PAST_STEP_MARGIN_MS ? currentStep() - 1 : currentStep();
}

/** The operator's next code: a step later than the last one used, waiting for it when needed. */
export async function nextCode(file: string, account: string): Promise<string> {
  const known = read(file)[account];
  if (!known) throw new Error(`No two-factor secret of ${account} in this test run`);
  const step = Math.max(oldestUsable(), known.lastStep + 1);
  while (step > currentStep() + 1) await new Promise((resolve) => setTimeout(resolve, 250));
  const all = read(file);
  all[account] = { secret: known.secret, lastStep: step };
  write(file, all);
  const totp = new TOTP({
    algorithm: 'SHA1',
    digits: TWO_FACTOR.digits,
    period: TWO_FACTOR.periodSeconds,
    secret: Secret.fromBase32(known.secret),
  });
  return totp.generate({ timestamp: step * STEP_MS });
}

/** The account codes are kept under: an operator's name at a server's address. */
export const accountOf = (username: string, baseUrl: string) => `${username}@${baseUrl}`;
