/**
 * Calling the operator API (/admin-api) in tests, signed in as a console user would be: an
 * operator whose role requires two-factor (admin, finance) sets it up before any other call, and
 * signs in with a code from then on. The helpers keep each enrolled operator's secret (per
 * database) and make its codes at the app's clock.
 */
import type { FastifyInstance } from 'fastify';
import { Secret, TOTP } from 'otpauth';
import { TWO_FACTOR, TWO_FACTOR_ROLES } from '@bourse/shared';
import type { Database } from '../../src/db/database';
import { ManualClock } from '../../src/lib/clock';
import { call, testAppOf, type CallResult } from '../helpers';

const STEP_MS = TWO_FACTOR.periodSeconds * 1000;

interface Enrolment {
  secret: string;
  /** The 30-second step of the last code used: the server refuses that step and earlier ones. */
  lastStep: number;
}

/** Enrolled operators by database, then username. */
const enrolments = new WeakMap<Database, Map<string, Enrolment>>();

function enrolmentsOf(app: FastifyInstance): Map<string, Enrolment> {
  const { db } = testAppOf(app);
  let found = enrolments.get(db);
  if (!found) enrolments.set(db, (found = new Map()));
  return found;
}

/**
 * Keeps what a test enrolled itself (and the step of the last code it used), so the helpers can
 * sign the operator in afterwards.
 */
export function rememberTwoFactor(
  app: FastifyInstance,
  username: string,
  secret: string,
  lastStep = 0,
): void {
  enrolmentsOf(app).set(username, { secret, lastStep });
}

/** The code of `secret` for a 30-second step. */
export function totpAt(secret: string, step: number): string {
  return new TOTP({
    digits: TWO_FACTOR.digits,
    period: TWO_FACTOR.periodSeconds,
    secret: Secret.fromBase32(secret),
  }).generate({ timestamp: step * STEP_MS });
}

/**
 * A fresh code for an enrolled operator: the earliest step the server accepts now (one either side
 * of the app's clock) that is later than the last one used. When three codes were used within one
 * step, a manual clock moves on to the next step, a real one is waited for (a code works once).
 */
export async function nextCode(app: FastifyInstance, username: string): Promise<string> {
  const enrolment = enrolmentsOf(app).get(username);
  if (!enrolment) throw new Error(`${username} has no two-factor the helpers know of`);
  const { clock } = testAppOf(app);
  const now = Math.floor(clock.now().getTime() / STEP_MS);
  const step = Math.max(now - 1, enrolment.lastStep + 1);
  if (step > now + 1) {
    const wait = (step - 1) * STEP_MS - clock.now().getTime();
    if (clock instanceof ManualClock) clock.advance(wait);
    else await new Promise((resolve) => setTimeout(resolve, wait));
  }
  enrolment.lastStep = step;
  return totpAt(enrolment.secret, step);
}

/** Whether an operator with these roles must have two-factor on before other calls. */
export const needsTwoFactor = (roles: readonly string[]) =>
  roles.some((role) => (TWO_FACTOR_ROLES as readonly string[]).includes(role));

export function adminApiCall(
  app: FastifyInstance,
  method: 'GET' | 'POST',
  url: string,
  options: Parameters<typeof call>[3] = {},
): Promise<CallResult> {
  return call(app, method, `/admin-api${url}`, options);
}

/**
 * Signs an operator in (with a code when two-factor is on); the answer's data: the token and the
 * operator.
 */
async function signedIn(
  app: FastifyInstance,
  username: string,
  password: string,
): Promise<{
  token: string;
  operator: { pwdChangeTime: string | null; twoFactor: boolean; roles: string[] };
}> {
  const result = await adminApiCall(app, 'POST', '/auth/login', { json: { username, password } });
  if (result.status !== 200) throw new Error(`sign-in failed: ${JSON.stringify(result.body)}`);
  if (!result.body.data.twoFactorRequired) return result.body.data;
  const second = await adminApiCall(app, 'POST', '/auth/loginTwoFactor', {
    json: { challenge: result.body.data.challenge, code: await nextCode(app, username) },
  });
  if (second.status !== 200)
    throw new Error(`two-factor sign-in failed: ${JSON.stringify(second.body)}`);
  return second.body.data;
}

/** Signs an operator in (with a code when two-factor is on) and returns its token. */
export async function operatorSignIn(
  app: FastifyInstance,
  username: string,
  password: string,
): Promise<string> {
  return (await signedIn(app, username, password)).token;
}

/**
 * Sets up and turns on two-factor for a signed-in operator, and keeps its secret for the helpers;
 * the session stays.
 */
export async function enrolTwoFactor(
  app: FastifyInstance,
  token: string,
  username: string,
  password: string,
): Promise<{ secret: string; recoveryCodes: string[] }> {
  const setup = await adminApiCall(app, 'POST', '/auth/twoFactor/setup', {
    token,
    json: { password },
  });
  if (setup.status !== 200)
    throw new Error(`two-factor setup failed: ${JSON.stringify(setup.body)}`);
  const secret = setup.body.data.secret as string;
  rememberTwoFactor(app, username, secret);
  const enabled = await adminApiCall(app, 'POST', '/auth/twoFactor/enable', {
    token,
    json: { code: await nextCode(app, username) },
  });
  if (enabled.status !== 200)
    throw new Error(`two-factor enable failed: ${JSON.stringify(enabled.body)}`);
  return { secret, recoveryCodes: enabled.body.data.recoveryCodes as string[] };
}

/**
 * Signs an operator in, ready for any call: an operator who must still choose a password (never
 * changed since it was made or reset by an admin) is refused every call but a few
 * (`hint_pwdChangeRequired`), so this changes it to an interim one and back, and signs in again;
 * one whose role requires two-factor and has it off is refused too (`hint_twoFactorSetupRequired`),
 * so this turns it on. The test's `password` keeps signing in; the changes are audited like any
 * other.
 */
export async function operatorReady(
  app: FastifyInstance,
  username: string,
  password: string,
): Promise<string> {
  let session = await signedIn(app, username, password);
  if (session.operator.pwdChangeTime === null) {
    const interim = `${password} (interim)`;
    await changeOwnPassword(app, session.token, password, interim);
    await changeOwnPassword(app, await operatorSignIn(app, username, interim), interim, password);
    session = await signedIn(app, username, password);
  }
  if (!session.operator.twoFactor && needsTwoFactor(session.operator.roles))
    await enrolTwoFactor(app, session.token, username, password);
  return session.token;
}

/** Changes the signed-in operator's own password (every session of theirs ends). */
export async function changeOwnPassword(
  app: FastifyInstance,
  token: string,
  oldPassword: string,
  newPassword: string,
): Promise<void> {
  const me = await adminApiCall(app, 'GET', '/auth/me', { token });
  const username = me.body.data?.username as string | undefined;
  const result = await adminApiCall(app, 'POST', '/auth/changePassword', {
    token,
    json: {
      oldPassword,
      newPassword,
      ...(me.body.data?.twoFactor ? { twoFactorCode: await nextCode(app, username!) } : {}),
    },
  });
  if (result.status !== 200)
    throw new Error(`password change failed: ${JSON.stringify(result.body)}`);
}
