/**
 * The first operator (`admin`) of a fresh browser-test server made ready for any call, as its first
 * sign-in in the console would: its own password (which ends the generated one's session), then
 * two-factor (required for admins). Answers a session of theirs. The web app's global setup makes
 * the shared server's admin ready with it, and a file that starts a server of its own (other
 * settings: a test clock) does the same.
 */
import { Secret, TOTP } from 'otpauth';

interface Answer<T> {
  code: number;
  msg: string;
  data: T;
}

export async function readyAdmin(baseUrl: string, firstPassword: string): Promise<string> {
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
