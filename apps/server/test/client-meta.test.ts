/**
 * The client address and user agent stored with sessions come from headers no schema checks. Node's
 * HTTP parser refuses control characters in headers, but what sits in front of the server (or an
 * in-process call) may not: a NUL in the user agent made PostgreSQL refuse the session (500), and a
 * forwarded "address" that is not one was stored as it came.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureFirstAdmin } from '../src/modules/admin/service';
import { createTestApp, GOOD_PASSWORD, registerUser, type TestApp } from './helpers';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ env: { TRUST_PROXY_HOPS: '1' } });
  await ensureFirstAdmin(t.db, t.clock, 'admin', 'client meta admin password');
});
afterAll(async () => {
  await t.close();
});

const HOSTILE_HEADERS = {
  'user-agent': `Probe\u0000/1.0 \ud800 (\u001b[31m)\u0085${'x'.repeat(600)}`,
  'x-forwarded-for': '<script>alert(1)</script>',
};

describe('what is stored of the client', () => {
  it('keeps a user session with the user agent cleaned and a real address', async () => {
    const user = await registerUser(t.app);
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/userInfo/login',
      remoteAddress: '192.0.2.7',
      headers: HOSTILE_HEADERS,
      payload: { userAccount: user.email, userPwd: GOOD_PASSWORD },
    });
    expect(login.statusCode, login.body).toBe(200);
    const { rows } = await t.db.query<{ ip: string; user_agent: string }>(
      'SELECT ip, user_agent FROM user_session WHERE user_id = $1 ORDER BY id DESC LIMIT 1',
      [user.userId],
    );
    expect(rows[0]!.ip).toBe('192.0.2.7');
    expect(rows[0]!.user_agent).toMatch(/^Probe\/1\.0 {2}\(\[31m\)x+$/);
    expect(rows[0]!.user_agent.length).toBeLessThanOrEqual(512);
  });

  it('keeps an operator session the same way', async () => {
    const login = await t.app.inject({
      method: 'POST',
      url: '/admin-api/auth/login',
      remoteAddress: '192.0.2.8',
      headers: HOSTILE_HEADERS,
      payload: { username: 'admin', password: 'client meta admin password' },
    });
    expect(login.statusCode, login.body).toBe(200);
    const { rows } = await t.db.query<{ ip: string; user_agent: string }>(
      'SELECT ip, user_agent FROM operator_session ORDER BY id DESC LIMIT 1',
    );
    expect(rows[0]!.ip).toBe('192.0.2.8');
    expect(rows[0]!.user_agent).toMatch(/^Probe\/1\.0 {2}\(\[31m\)x+$/);
  });
});
