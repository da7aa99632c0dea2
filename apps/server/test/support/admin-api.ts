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
