/**
 * The browser tests' server (tools/e2e-server.ts): the real server with a fresh embedded database
 * on a free port, the web app built if stale. Tests read its address with `inject('baseUrl')`.
 * The first operator (`admin`) is made ready here once, as its first sign-in in the console would:
 * its own password, then two-factor (required for admins); files get its session
 * (`inject('adminToken')`) for operator steps through /admin-api, and none ends it. Teardown stops
 * the server and deletes the data.
 */
import { Secret, TOTP } from 'otpauth';
import type { TestProject } from 'vitest/node';
import { startE2eServer } from '../../../tools/e2e-server';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    /** A session of the first operator (`admin`: password chosen, two-factor on). */
    adminToken: string;
  }
}

interface Answer<T> {
  code: number;
  msg: string;
  data: T;
}

/** Makes the first admin ready for any call and answers a session of theirs. */
async function readyAdmin(baseUrl: string, firstPassword: string): Promise<string> {
  const post = async <T>(url: string, body: Record<string, string>, token = '') => {
    const response = await fetch(new URL(`/admin-api${url}`, baseUrl), {
      method: 'POST',
      headers: {
        Accept: 'application/json',
        'Content-Type': 'application/json',
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify(body),
    });
    const answer = (await response.json()) as Answer<T>;
    if (answer.code !== 200) throw new Error(`${url}: ${JSON.stringify(answer)}`);
    return answer.data;
  };
  const signIn = (password: string) =>
    post<{ token: string }>('/auth/login', { username: 'admin', password });
  // The generated password is changed to one of the harness's own (which ends the session).
  const chosen = `${firstPassword} (chosen)`;
  const first = await signIn(firstPassword);
  await post(
    '/auth/changePassword',
    { oldPassword: firstPassword, newPassword: chosen },
    first.token,
  );
  const { token } = await signIn(chosen);
  const { secret } = await post<{ secret: string }>(
    '/auth/twoFactor/setup',
    { password: chosen },
    token,
  );
  const code = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate();
  await post('/auth/twoFactor/enable', { code }, token);
  return token;
}

export default async function setup({ provide }: TestProject): Promise<() => Promise<void>> {
  const server = await startE2eServer({ app: 'web', dataDirPrefix: 'bourse-e2e-' });
  try {
    provide('adminToken', await readyAdmin(server.baseUrl, server.firstAdminPassword));
  } catch (error) {
    await server.stop();
    throw error;
  }
  provide('baseUrl', server.baseUrl);
  return server.stop;
}
