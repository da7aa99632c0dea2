/**
 * The security centre (issue 19): a user's sessions and devices (ending one ends its token at
 * once and signs its sockets out; ending the others keeps this one; nobody reaches another user's
 * session), the login history (every attempt on an existing account with its result, 90 days,
 * pruned as rows are written), and the anti-phishing code (validated on its field, confirmed with
 * the login password, carried by the emails sent to the account).
 */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { TOTP } from 'otpauth';
import { WebSocket } from 'ws';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  createTestApp,
  GOOD_PASSWORD,
  onPostgres,
  registerUser,
  uniqueEmail,
  type TestApp,
} from './helpers';
import { createCodeSender } from '../src/modules/account/code-sender';
import { ensureFirstAdmin } from '../src/modules/admin/service';
import { adminApiCall, operatorReady } from './support/admin-api';

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const WINDOWS_CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const DAY_MS = 24 * 60 * 60 * 1000;

async function login(
  t: TestApp,
  email: string,
  options: { password?: string; userAgent?: string; ip?: string } = {},
) {
  return call(t.app, 'POST', '/api/userInfo/login', {
    json: { userAccount: email, userPwd: options.password ?? GOOD_PASSWORD },
    headers: {
      ...(options.userAgent ? { 'user-agent': options.userAgent } : {}),
      ...(options.ip ? { 'x-forwarded-for': options.ip } : {}),
    },
  });
}

async function signIn(t: TestApp, email: string, userAgent?: string): Promise<string> {
  const result = await login(t, email, { userAgent });
  expect(result.status, JSON.stringify(result.body)).toBe(200);
  return result.body.data.token as string;
}

const sessions = (t: TestApp, token: string, query: Record<string, string> = {}) =>
  call(t.app, 'GET', '/api/userSecurity/sessions', { token, query });
const history = (t: TestApp, token: string, query: Record<string, string> = {}) =>
  call(t.app, 'GET', '/api/userSecurity/loginHistory', { token, query });

describe(`security centre (${onPostgres ? 'PostgreSQL' : 'PGlite'})`, () => {
  let t: TestApp;
  let base: string;
  const sockets: WebSocket[] = [];

  beforeAll(async () => {
    t = await createTestApp({ env: { TRUST_PROXY_HOPS: '1', WS_SESSION_CHECK_MS: '60000' } });
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await t?.close();
  });

  describe('sessions and devices', () => {
    it("lists the user's live sessions with their device and address, this one marked", async () => {
      const user = await registerUser(t.app);
      const phone = await login(t, user.email, { userAgent: IPHONE, ip: '203.0.113.7' });
      const desktop = await signIn(t, user.email, WINDOWS_CHROME);
      const other = await registerUser(t.app);

      const listed = await sessions(t, desktop);
      expect(listed.status).toBe(200);
      expect(listed.body.total).toBe(3);
      const rows = listed.body.rows!;
      expect(rows.map((row) => row.current)).toEqual([true, false, false]);
      expect(rows[0]).toMatchObject({
        device: { browser: 'Chrome 131', os: 'Windows 10', type: 'desktop' },
        userAgent: WINDOWS_CHROME,
      });
      expect(rows[1]).toMatchObject({
        device: { browser: 'Safari 17', os: 'iOS 17', type: 'mobile' },
        ip: '203.0.113.7',
      });
      expect(new Date(rows[1].createTime).getTime()).toBeLessThanOrEqual(
        new Date(rows[1].lastSeenTime).getTime(),
      );
      // The registration's session, of the test client (no user agent a parser knows).
      expect(rows[2].device.type).toBe('unknown');
      expect(rows.some((row) => row.id === phone.body.data.id)).toBe(false);
      // Another user's sessions are not in the list.
      const otherRows = (await sessions(t, other.token)).body.rows!;
      expect(otherRows).toHaveLength(1);
      expect(rows.map((row) => row.id)).not.toContain(otherRows[0].id);

      const paged = await sessions(t, desktop, { pageNum: '2', pageSize: '2' });
      expect(paged.body).toMatchObject({ total: 3 });
      expect(paged.body.rows!.map((row) => row.id)).toEqual([rows[2].id]);
    });

    it('ends one session: its token is refused at once and its socket is signed out', async () => {
      const user = await registerUser(t.app);
      const phone = await signIn(t, user.email, IPHONE);
      const socket = new WebSocket(`${base.replace('http', 'ws')}/ws`);
      sockets.push(socket);
      const messages: { op: string; msg?: string; signedOut?: boolean }[] = [];
      socket.on('message', (raw) => messages.push(JSON.parse(String(raw))));
      await once(socket, 'open');
      socket.send(JSON.stringify({ op: 'auth', token: phone }));
      await expect.poll(() => messages.some((m) => m.op === 'authed')).toBe(true);

      const rows = (await sessions(t, user.token)).body.rows!;
      const target = rows.find((row) => !row.current)!;
      const ended = await call(t.app, 'POST', '/api/userSecurity/endSession', {
        token: user.token,
        form: { id: String(target.id) },
      });
      expect(ended.status, JSON.stringify(ended.body)).toBe(200);

      const refused = await call(t.app, 'GET', '/api/userInfo/getUserInfo', { token: phone });
      expect(refused.status).toBe(401);
      await expect
        .poll(() => messages.find((m) => m.signedOut === true))
        .toMatchObject({ op: 'error', msg: 'hint_sessionExpired', signedOut: true });
      expect((await sessions(t, user.token)).body.total).toBe(1);

      // Ended already: not found.
      const again = await call(t.app, 'POST', '/api/userSecurity/endSession', {
        token: user.token,
        form: { id: String(target.id) },
      });
      expect(again.status).toBe(404);
      expect(again.body).toMatchObject({ msg: 'hint_notFound', params: ['id'] });
    });

    it("never reaches another user's session (404), which stays live", async () => {
      const owner = await registerUser(t.app);
      const intruder = await registerUser(t.app);
      const ownerSession = (await sessions(t, owner.token)).body.rows![0];
      const refused = await call(t.app, 'POST', '/api/userSecurity/endSession', {
        token: intruder.token,
        form: { id: String(ownerSession.id) },
      });
      expect(refused.status).toBe(404);
      expect(refused.body.msg).toBe('hint_notFound');
      expect(
        (await call(t.app, 'GET', '/api/userInfo/getUserInfo', { token: owner.token })).status,
      ).toBe(200);

      const invalid = await call(t.app, 'POST', '/api/userSecurity/endSession', {
        token: owner.token,
        form: { id: 'x' },
      });
      expect(invalid.status).toBe(400);
      expect(invalid.body).toMatchObject({ msg: 'hint_paramInvalid', params: ['id'] });
    });

    it('ends every other session and keeps this one', async () => {
      const user = await registerUser(t.app);
      const second = await signIn(t, user.email, IPHONE);
      const third = await signIn(t, user.email, WINDOWS_CHROME);
      const other = await registerUser(t.app);

      const ended = await call(t.app, 'POST', '/api/userSecurity/endOtherSessions', {
        token: third,
      });
      expect(ended.status).toBe(200);
      expect(ended.body.data).toEqual({ sessionsEnded: 2 });
      for (const token of [user.token, second]) {
        expect((await call(t.app, 'GET', '/api/userInfo/getUserInfo', { token })).status).toBe(401);
      }
      const left = (await sessions(t, third)).body;
      expect(left.total).toBe(1);
      expect(left.rows![0].current).toBe(true);
      // Another user's session is untouched.
      expect(
        (await call(t.app, 'GET', '/api/userInfo/getUserInfo', { token: other.token })).status,
      ).toBe(200);

      const none = await call(t.app, 'POST', '/api/userSecurity/endOtherSessions', {
        token: third,
      });
      expect(none.body.data).toEqual({ sessionsEnded: 0 });
    });

    it('needs a signed-in user', async () => {
      expect((await sessions(t, 'nope')).status).toBe(401);
      expect((await call(t.app, 'GET', '/api/userSecurity/sessions')).status).toBe(401);
    });
  });

  describe('login history', () => {
    it('records success, wrong password and locked, newest first; an unknown account is not recorded', async () => {
      const user = await registerUser(t.app);
      await signIn(t, user.email, IPHONE);
      const wrong = await login(t, user.email, { password: 'Wrong-pass-1', ip: '198.51.100.4' });
      expect(wrong.body.msg).toBe('hint_loginFailed');
      const unknown = await login(t, uniqueEmail('nobody'));
      expect(unknown.body.msg).toBe('hint_loginFailed');

      const listed = await history(t, user.token);
      expect(listed.status).toBe(200);
      expect(listed.body.total).toBe(2);
      expect(listed.body.rows).toEqual([
        expect.objectContaining({ result: 'wrongPassword', ip: '198.51.100.4' }),
        expect.objectContaining({
          result: 'success',
          device: { browser: 'Safari 17', os: 'iOS 17', type: 'mobile' },
        }),
      ]);

      // Wrong passwords up to the limit (the last one answers that the account is locked), then
      // even the right password is refused while locked: each attempt is recorded as answered.
      const answers = [];
      for (let i = 1; i < t.config.LOGIN_MAX_FAILURES; i++)
        answers.push((await login(t, user.email, { password: 'Wrong-pass-1' })).body.msg);
      answers.push((await login(t, user.email)).body.msg);
      expect(answers.at(-2)).toBe('hint_accountLocked');
      expect(answers.at(-1)).toBe('hint_accountLocked');
      const rows = (await history(t, user.token, { pageSize: '50' })).body.rows!;
      expect(rows.map((row) => row.result)).toEqual([
        'locked',
        'locked',
        ...Array(t.config.LOGIN_MAX_FAILURES - 1).fill('wrongPassword'),
        'success',
      ]);
      const count = await t.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM login_history h JOIN app_user u ON u.id = h.user_id WHERE u.email LIKE $1',
        ['nobody%'],
      );
      expect(count.rows[0]!.n).toBe(0);

      // Another user sees only their own (the registration opened a session: no sign-in yet).
      const other = await registerUser(t.app);
      expect((await history(t, other.token)).body).toMatchObject({ total: 0, rows: [] });
    });

    it('keeps 90 days: older attempts leave the list and are deleted as new ones are written', async () => {
      const user = await registerUser(t.app);
      await login(t, user.email, { password: 'Wrong-pass-1' });
      t.clock.advance(91 * DAY_MS);
      const token = await signIn(t, user.email);
      const rows = (await history(t, token)).body.rows!;
      expect(rows.map((row) => row.result)).toEqual(['success']);
      const stored = await t.db.query<{ result: string }>(
        'SELECT result FROM login_history WHERE user_id = $1',
        [user.userId],
      );
      expect(stored.rows.map((row) => row.result)).toEqual(['success']);
    });

    it('keeps at most 1,000 attempts of an account, the newest', async () => {
      const user = await registerUser(t.app);
      await t.db.query(
        `INSERT INTO login_history (user_id, created_at, result, ip)
         SELECT $1, $2::timestamptz - make_interval(secs => n), 'wrongPassword', '192.0.2.1'
         FROM generate_series(1, 1050) AS n`,
        [user.userId, t.clock.now()],
      );
      await signIn(t, user.email);
      const listed = await history(t, user.token, { pageSize: '1' });
      expect(listed.body.total).toBe(1000);
      expect(listed.body.rows![0].result).toBe('success');
    });

    it('is listed to support in the console', async () => {
      const user = await registerUser(t.app);
      await login(t, user.email, { password: 'Wrong-pass-1' });
      await ensureFirstAdmin(t.db, t.clock, 'security-admin', 'Security-admin-42');
      const token = await operatorReady(t.app, 'security-admin', 'Security-admin-42');
      const listed = await adminApiCall(t.app, 'GET', '/users/loginHistory', {
        token,
        query: { id: String(user.userId) },
      });
      expect(listed.status, JSON.stringify(listed.body)).toBe(200);
      expect(listed.body.rows).toEqual([expect.objectContaining({ result: 'wrongPassword' })]);
    });
  });

  describe('anti-phishing code', () => {
    const set = (token: string, form: Record<string, string>) =>
      call(t.app, 'POST', '/api/userSecurity/setAntiPhishing', { token, form });

    it('is refused on its field unless 4–20 letters, digits and spaces', async () => {
      const user = await registerUser(t.app);
      for (const code of ['abc', 'a'.repeat(21), 'abc$def', '', '   ', 'ab\u0000cd']) {
        const refused = await set(user.token, { code, userPwd: GOOD_PASSWORD });
        expect(refused.status, code).toBe(400);
        expect(refused.body.params, code).toEqual(['code']);
      }
      expect((await set(user.token, { code: 'abc$def', userPwd: GOOD_PASSWORD })).body.msg).toBe(
        'hint_antiPhishingInvalid',
      );
      const noPassword = await set(user.token, { code: 'Blue Heron 42' });
      expect(noPassword.body).toMatchObject({ msg: 'hint_paramRequired', params: ['userPwd'] });
      const wrong = await set(user.token, { code: 'Blue Heron 42', userPwd: 'Wrong-pass-1' });
      expect(wrong.body).toMatchObject({ msg: 'hint_pwdWrong', params: ['userPwd'] });
      expect(
        (await call(t.app, 'GET', '/api/userSecurity/antiPhishing', { token: user.token })).body
          .data,
      ).toEqual({ code: null, updateTime: null });
    });

    it('needs a two-factor code too once two-factor is on', async () => {
      const user = await registerUser(t.app);
      const setup = await call(t.app, 'POST', '/api/userSecurity/twoFactor/setup', {
        token: user.token,
        form: { userPwd: GOOD_PASSWORD },
      });
      const secret = setup.body.data.secret as string;
      const totp = () => new TOTP({ secret }).generate({ timestamp: t.clock.now().getTime() });
      const enabled = await call(t.app, 'POST', '/api/userSecurity/twoFactor/enable', {
        token: user.token,
        form: { code: totp() },
      });
      expect(enabled.status, JSON.stringify(enabled.body)).toBe(200);
      t.clock.advance(30_000);

      const without = await set(user.token, { code: 'Blue Heron 42', userPwd: GOOD_PASSWORD });
      expect(without.body).toMatchObject({
        msg: 'hint_twoFactorRequired',
        params: ['twoFactorCode'],
      });
      const saved = await set(user.token, {
        code: 'Blue Heron 42',
        userPwd: GOOD_PASSWORD,
        twoFactorCode: totp(),
      });
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      expect(saved.body.data.code).toBe('Blue Heron 42');
    });

    it('is set with the login password, trimmed, in letters of any script', async () => {
      const user = await registerUser(t.app);
      const saved = await set(user.token, { code: '  Ünïcode 海鸥 42 ', userPwd: GOOD_PASSWORD });
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      expect(saved.body.data.code).toBe('Ünïcode 海鸥 42');
      const read = await call(t.app, 'GET', '/api/userSecurity/antiPhishing', {
        token: user.token,
      });
      expect(read.body.data).toEqual({
        code: 'Ünïcode 海鸥 42',
        updateTime: t.clock.now().toISOString(),
      });
    });
  });
});

describe(`anti-phishing code in the emails (${onPostgres ? 'PostgreSQL' : 'PGlite'})`, () => {
  let t: TestApp;
  let smtp: SMTPServer;
  const mails: { to: string; text: string }[] = [];

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, callback) {
        let text = '';
        stream.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        stream.on('end', () => {
          mails.push({ to: session.envelope.rcptTo.map((r) => r.address).join(','), text });
          callback();
        });
      },
    });
    smtp.listen(0, '127.0.0.1');
    await once(smtp.server, 'listening');
    const { port } = smtp.server.address() as AddressInfo;
    t = await createTestApp({
      env: { SMTP_URL: `smtp://127.0.0.1:${port}`, VERIFICATION_CODES: 'auto' },
    });
  });
  afterAll(async () => {
    await t?.close();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  it('starts every email to the account with its code; an address with no account gets none', async () => {
    const email = uniqueEmail();
    await call(t.app, 'POST', '/api/userInfo/sendEmailVerificationCode', { form: { email } });
    await expect.poll(() => mails.filter((mail) => mail.to === email).length).toBe(1);
    expect(mails.find((mail) => mail.to === email)!.text).not.toContain('anti-phishing');

    const code = /verification code is (\d{6})/.exec(
      mails.find((mail) => mail.to === email)!.text,
    )![1]!;
    const registered = await call(t.app, 'POST', '/api/userInfo/reg', {
      form: { regType: '1', userAccount: email, userPwd: GOOD_PASSWORD, yzmCode: code },
    });
    expect(registered.status, JSON.stringify(registered.body)).toBe(200);
    const token = registered.body.data.token as string;

    const saved = await call(t.app, 'POST', '/api/userSecurity/setAntiPhishing', {
      token,
      form: { code: 'Blue Heron 42', userPwd: GOOD_PASSWORD },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    await expect.poll(() => mails.filter((mail) => mail.to === email).length).toBe(2);
    const notice = mails.filter((mail) => mail.to === email)[1]!.text;
    expect(notice).toContain('Subject: Your Bourse anti-phishing code was changed');
    // The body's first line, before anything else the email says.
    const body = notice
      .split(/\r?\n\r?\n/)
      .slice(1)
      .join('\n\n');
    expect(body.trimStart().startsWith('Your anti-phishing code: Blue Heron 42')).toBe(true);
  });

  it("starts a verification code's email with the recipient account's code, in their language", async () => {
    const sender = createCodeSender({
      smtpUrl: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`,
      mailFrom: 'bourse@example.com',
      logger: t.app.log,
    });
    const email = uniqueEmail();
    await sender.send({
      channel: 'email',
      target: email,
      code: '482913',
      lang: 'de',
      antiPhishingCode: 'Blue Heron 42',
    });
    await expect.poll(() => mails.filter((mail) => mail.to === email).length).toBe(1);
    const body = mails
      .find((mail) => mail.to === email)!
      .text.split(/\r?\n\r?\n/)
      .slice(1)
      .join('\n\n');
    expect(body.trimStart().startsWith('Ihr Anti-Phishing-Code: Blue Heron 42')).toBe(true);
    expect(body).toContain('482913');
  });
});
