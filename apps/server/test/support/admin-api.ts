/** Calling the operator API (/admin-api) in tests. */
import type { FastifyInstance } from 'fastify';
import { call, type CallResult } from '../helpers';

export function adminApiCall(
  app: FastifyInstance,
  method: 'GET' | 'POST',
  url: string,
  options: Parameters<typeof call>[3] = {},
): Promise<CallResult> {
  return call(app, method, `/admin-api${url}`, options);
}

/** Signs an operator in and returns its token. */
export async function operatorSignIn(
  app: FastifyInstance,
  username: string,
  password: string,
): Promise<string> {
  const result = await adminApiCall(app, 'POST', '/auth/login', { json: { username, password } });
  if (result.status !== 200) throw new Error(`sign-in failed: ${JSON.stringify(result.body)}`);
  return result.body.data.token as string;
}

/**
 * Signs an operator in, ready for any call: an operator who must still choose a password (never
 * changed since it was made or reset by an admin) is refused every call but a few
 * (`hint_pwdChangeRequired`), so this changes it to an interim one and back, and signs in again.
 * The test's `password` keeps signing in; the two changes are audited like any other.
 */
export async function operatorReady(
  app: FastifyInstance,
  username: string,
  password: string,
): Promise<string> {
  const signedIn = await adminApiCall(app, 'POST', '/auth/login', {
    json: { username, password },
  });
  if (signedIn.status !== 200) throw new Error(`sign-in failed: ${JSON.stringify(signedIn.body)}`);
  if (signedIn.body.data.operator.pwdChangeTime !== null) return signedIn.body.data.token as string;
  const interim = `${password} (interim)`;
  await changeOwnPassword(app, signedIn.body.data.token as string, password, interim);
  await changeOwnPassword(app, await operatorSignIn(app, username, interim), interim, password);
  return operatorSignIn(app, username, password);
}

/** Changes the signed-in operator's own password (every session of theirs ends). */
export async function changeOwnPassword(
  app: FastifyInstance,
  token: string,
  oldPassword: string,
  newPassword: string,
): Promise<void> {
  const result = await adminApiCall(app, 'POST', '/auth/changePassword', {
    token,
    json: { oldPassword, newPassword },
  });
  if (result.status !== 200)
    throw new Error(`password change failed: ${JSON.stringify(result.body)}`);
}
