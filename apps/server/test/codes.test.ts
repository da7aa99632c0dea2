import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import { call, createTestApp, GOOD_PASSWORD, uniqueEmail, type TestApp } from './helpers';

describe('verification codes written to the log (no delivery channel, codes required)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ env: { VERIFICATION_CODES: 'always' } });
  });

  afterAll(async () => {
    await t.close();
  });

  it('requires a code to register, accepts the logged one once', async () => {
    const email = uniqueEmail();
    const without = await call(t.app, 'POST', '/api/userInfo/reg', {
      form: { regType: '1', userAccount: email, userPwd: GOOD_PASSWORD },
    });
    expect(without.body).toMatchObject({ msg: 'hint_codeRequired', params: ['yzmCode'] });

    const sent = await call(t.app, 'POST', '/api/userInfo/sendEmailVerificationCode', {
      form: { email },
    });
    expect(sent.body).toMatchObject({ code: 200, msg: 'hint_codeSent' });
    const code = t.lastCode(email.toLowerCase());
    expect(code).toMatch(/^\d{6}$/);
    const stored = await t.db.query<{ code_hash: string }>(
      'SELECT code_hash FROM verification_code WHERE target = $1',
      [email.toLowerCase()],
    );
    expect(stored.rows[0]!.code_hash).not.toContain(code!);

    const wrong = await call(t.app, 'POST', '/api/userInfo/reg', {
      form: {
        regType: '1',
        userAccount: email,
        userPwd: GOOD_PASSWORD,
        yzmCode: code === '000000' ? '111111' : '000000',
      },
    });
    expect(wrong.body.msg).toBe('hint_codeWrong');
    const right = await call(t.app, 'POST', '/api/userInfo/reg', {
      form: { regType: '1', userAccount: email, userPwd: GOOD_PASSWORD, yzmCode: code! },
    });
    expect(right.status).toBe(200);

    const reused = await call(t.app, 'POST', '/api/userInfo/sendEmailVerificationCode', {
      form: { email },
    });
    expect(reused.body.msg).toBe('hint_accountExists');
  });

  it('makes a client wait 60 s before asking again', async () => {
    const email = uniqueEmail();
    await call(t.app, 'POST', '/api/userInfo/sendEmailVerificationCode', { form: { email } });
    const again = await call(t.app, 'POST', '/api/userInfo/sendEmailVerificationCode', {
      form: { email },
    });
    expect(again.status).toBe(429);
    expect(again.body).toMatchObject({ msg: 'hint_codeResendWait', params: [60] });
    t.clock.advance(45_000);
    expect(
      (await call(t.app, 'POST', '/api/userInfo/sendEmailVerificationCode', { form: { email } }))
        .body.params,
    ).toEqual([15]);
    t.clock.advance(15_000);
    expect(
      (await call(t.app, 'POST', '/api/userInfo/sendEmailVerificationCode', { form: { email } }))
        .status,
    ).toBe(200);
  });

  it('allows 5 attempts per code, even the right one after that', async () => {
    const email = uniqueEmail();
    await call(t.app, 'POST', '/api/userInfo/sendEmailVerificationCode', { form: { email } });
    const code = t.lastCode(email.toLowerCase())!;
    const wrongCode = code === '123456' ? '654321' : '123456';
    const answers = [];
    for (let i = 0; i < 6; i++) {
      answers.push(
        (
          await call(t.app, 'POST', '/api/userInfo/reg', {
            form: { regType: '1', userAccount: email, userPwd: GOOD_PASSWORD, yzmCode: wrongCode },
          })
        ).body.msg,
      );
    }
    expect(answers).toEqual([
      'hint_codeWrong',
      'hint_codeWrong',
      'hint_codeWrong',
      'hint_codeWrong',
      'hint_codeWrong',
      'hint_codeTooManyAttempts',
    ]);
    const right = await call(t.app, 'POST', '/api/userInfo/reg', {
      form: { regType: '1', userAccount: email, userPwd: GOOD_PASSWORD, yzmCode: code },
    });
    expect(right.body.msg).toBe('hint_codeTooManyAttempts');
  });

  it('lets only one of many simultaneous guesses through per attempt', async () => {
    const email = uniqueEmail();
    await call(t.app, 'POST', '/api/userInfo/sendEmailVerificationCode', { form: { email } });
    const code = t.lastCode(email.toLowerCase())!;
    const guesses = Array.from({ length: 20 }, (_, i) =>
      String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0'),
    );
    await Promise.all(
      guesses.map((guess) =>
        call(t.app, 'POST', '/api/userInfo/reg', {
          form: { regType: '1', userAccount: email, userPwd: GOOD_PASSWORD, yzmCode: guess },
        }),
      ),
    );
    const row = await t.db.query<{ attempts: number }>(
      'SELECT attempts FROM verification_code WHERE target = $1',
      [email.toLowerCase()],
    );
    expect(row.rows[0]!.attempts).toBe(5);
  });

  it('expires a code after 10 minutes', async () => {
    const email = uniqueEmail();
    await call(t.app, 'POST', '/api/userInfo/sendEmailVerificationCode', { form: { email } });
    const code = t.lastCode(email.toLowerCase())!;
    t.clock.advance(10 * 60_000 + 1000);
    const late = await call(t.app, 'POST', '/api/userInfo/reg', {
      form: { regType: '1', userAccount: email, userPwd: GOOD_PASSWORD, yzmCode: code },
    });
    expect(late.body.msg).toBe('hint_codeWrong');
  });

  it('sends phone codes to the log and checks them on phone registration', async () => {
    const sent = await call(t.app, 'POST', '/api/userInfo/sendPhoneVerificationCode', {
      form: { areaCode: '+65', phone: '81234567' },
    });
    expect(sent.status).toBe(200);
    const code = t.lastCode('65-81234567')!;
    const reg = await call(t.app, 'POST', '/api/userInfo/reg', {
      form: {
        regType: '0',
        areaCode: '65',
        userAccount: '81234567',
        userPwd: GOOD_PASSWORD,
        yzmCode: code,
      },
    });
    expect(reg.status).toBe(200);
    const badPhone = await call(t.app, 'POST', '/api/userInfo/sendPhoneVerificationCode', {
      form: { areaCode: '86', phone: '12345' },
    });
    expect(badPhone.body).toMatchObject({ msg: 'hint_phoneInvalid', params: ['phone'] });
  });
});

describe('verification codes by SMTP', () => {
  let t: TestApp;
  let smtp: SMTPServer;
  const mails: { to: string; text: string }[] = [];

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, done) {
        let text = '';
        stream.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        stream.on('end', () => {
          mails.push({ to: session.envelope.rcptTo.map((r) => r.address).join(','), text });
          done();
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
    await t.close();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  it('mails the code in the user language and requires it for email, not for phone', async () => {
    const info = await call(t.app, 'GET', '/api/siteInfo/getSiteInfo');
    expect(info.body.data.register.codeRequired).toEqual({ email: true, phone: false });

    const email = uniqueEmail();
    const sent = await call(t.app, 'POST', '/api/userInfo/sendEmailVerificationCode', {
      form: { email },
      headers: { languageid: '4' },
    });
    expect(sent.status).toBe(200);
    const mail = mails.find((m) => m.to === email.toLowerCase());
    expect(mail).toBeDefined();
    // The code is in the body, after the headers (which carry dates and ids full of digits);
    // quoted-printable soft line breaks are joined first.
    const body = mail!.text.slice(mail!.text.indexOf('\r\n\r\n')).replace(/=\r\n/g, '');
    const code = /\b(\d{6})\b/.exec(body)?.[1];
    expect(code).toBeDefined();
    expect(t.lastCode(email.toLowerCase())).toBeUndefined();
    const reg = await call(t.app, 'POST', '/api/userInfo/reg', {
      form: { regType: '1', userAccount: email, userPwd: GOOD_PASSWORD, yzmCode: code! },
    });
    expect(reg.status).toBe(200);

    const phone = await call(t.app, 'POST', '/api/userInfo/reg', {
      form: { regType: '0', areaCode: '49', userAccount: '15112345678', userPwd: GOOD_PASSWORD },
    });
    expect(phone.status).toBe(200);
  });

  it('reports a mail server that is down and lets the user ask again at once', async () => {
    const down = await createTestApp({
      env: { SMTP_URL: 'smtp://127.0.0.1:1', VERIFICATION_CODES: 'auto' },
    });
    try {
      const email = uniqueEmail();
      const first = await call(down.app, 'POST', '/api/userInfo/sendEmailVerificationCode', {
        form: { email },
      });
      expect(first).toMatchObject({ status: 503, body: { msg: 'hint_codeSendFailed' } });
      const second = await call(down.app, 'POST', '/api/userInfo/sendEmailVerificationCode', {
        form: { email },
      });
      expect(second.body.msg).toBe('hint_codeSendFailed');
    } finally {
      await down.close();
    }
  });
});
