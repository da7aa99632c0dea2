import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY } from '@bourse/shared';
import { call, createTestApp, GOOD_PASSWORD, uniqueEmail, type TestApp } from './helpers';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ env: { CORS_ORIGINS: 'https://app.example.com' } });
});

afterAll(async () => {
  await t.close();
});

describe('envelope and statuses', () => {
  it('answers an unknown route with 404 in the envelope', async () => {
    const { status, body } = await call(t.app, 'GET', '/api/nothing/here');
    expect(status).toBe(404);
    expect(body).toMatchObject({ code: 500, msg: 'hint_notFound', text: 'Not found' });
  });

  it('accepts form-encoded and JSON bodies alike', async () => {
    const form = await call(t.app, 'POST', '/api/userInfo/reg', {
      form: { regType: '1', userAccount: uniqueEmail(), userPwd: GOOD_PASSWORD },
    });
    const json = await call(t.app, 'POST', '/api/userInfo/reg', {
      json: { regType: 1, userAccount: uniqueEmail(), userPwd: GOOD_PASSWORD },
    });
    expect([form.status, json.status]).toEqual([200, 200]);
  });

  it('refuses malformed, oversized and unsupported bodies with clear keys', async () => {
    const broken = await t.app.inject({
      method: 'POST',
      url: '/api/userInfo/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"userAccount": ',
    });
    expect(broken.statusCode).toBe(400);
    expect(broken.json()).toMatchObject({ code: 500, msg: 'hint_badRequest' });

    const huge = await t.app.inject({
      method: 'POST',
      url: '/api/userInfo/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `userAccount=${'a'.repeat(70_000)}&userPwd=x`,
    });
    expect(huge.statusCode).toBe(413);
    expect(huge.json()).toMatchObject({ msg: 'hint_bodyTooLarge' });

    const xml = await t.app.inject({
      method: 'POST',
      url: '/api/userInfo/login',
      headers: { 'content-type': 'application/xml' },
      payload: '<a/>',
    });
    expect(xml.statusCode).toBe(415);
    expect(xml.json()).toMatchObject({ msg: 'hint_unsupportedMediaType' });

    const array = await call(t.app, 'POST', '/api/userInfo/login', { json: ['x'] });
    expect(array).toMatchObject({ status: 400, body: { msg: 'hint_badRequest' } });

    const wrongTypes = await call(t.app, 'POST', '/api/userInfo/login', {
      json: { userAccount: { $gt: '' }, userPwd: 12345678 },
    });
    expect(wrongTypes).toMatchObject({
      status: 400,
      body: { msg: 'hint_paramInvalid', params: ['userAccount'] },
    });

    const repeated = await t.app.inject({
      method: 'GET',
      url: '/api/textLang/list?pageNum=1&pageNum=2',
    });
    expect(repeated.json()).toMatchObject({ msg: 'hint_paramInvalid', params: ['pageNum'] });

    const negative = await call(t.app, 'GET', '/api/textLang/list', { query: { pageNum: '-1' } });
    expect(negative.body).toMatchObject({ msg: 'hint_paramOutOfRange', params: ['pageNum'] });
  });

  it('sets security headers and allows CORS only for configured origins', async () => {
    const allowed = await t.app.inject({
      method: 'GET',
      url: '/api/switchSet/list',
      headers: { origin: 'https://app.example.com' },
    });
    expect(allowed.headers['access-control-allow-origin']).toBe('https://app.example.com');
    expect(allowed.headers['x-content-type-options']).toBe('nosniff');
    expect(allowed.headers['strict-transport-security']).toBeDefined();
    expect(allowed.headers['x-frame-options']).toBe('SAMEORIGIN');
    const foreign = await t.app.inject({
      method: 'GET',
      url: '/api/switchSet/list',
      headers: { origin: 'https://evil.example.com' },
    });
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/userInfo/login',
      headers: {
        origin: 'https://app.example.com',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'LanguageId',
      },
    });
    expect(preflight.statusCode).toBe(204);
    expect(String(preflight.headers['access-control-allow-headers'])).toContain('LanguageId');
    // An integrator's page signing its calls with an API key may send the signed-call headers.
    const signed = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/contractPosition/open',
      headers: {
        origin: 'https://app.example.com',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'x-bourse-apikey,x-bourse-timestamp,x-bourse-signature',
      },
    });
    expect(signed.statusCode).toBe(204);
    const allowedHeaders = String(signed.headers['access-control-allow-headers']).toLowerCase();
    for (const name of Object.values(API_KEY.headers)) {
      expect(allowedHeaders).toContain(name.toLowerCase());
    }
  });

  it('reports health with the database kind', async () => {
    const health = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ status: 'ok', database: t.db.kind });
  });

  it('never leaks internals when something breaks', async () => {
    const broken = await createTestApp();
    await broken.db.close();
    const response = await broken.app.inject({ method: 'GET', url: '/api/switchSet/list' });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({
      code: 500,
      msg: 'hint_systemError',
      text: 'Something went wrong on our side, please try again later',
    });
    expect((await broken.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(503);
    expect(broken.logs.some((line) => line.level >= 50 && line.msg === 'request failed')).toBe(
      true,
    );
    await broken.close();
  });
});

describe('rate limits', () => {
  it('limits login, registration and code requests per client and says when to retry', async () => {
    const limited = await createTestApp({
      env: {
        RATE_LIMIT_LOGIN_PER_MINUTE: '3',
        RATE_LIMIT_REGISTER_PER_MINUTE: '2',
        RATE_LIMIT_CODE_PER_MINUTE: '1',
      },
    });
    try {
      const logins = [];
      for (let i = 0; i < 4; i++) {
        logins.push(
          await call(limited.app, 'POST', '/api/userInfo/login', {
            form: { userAccount: uniqueEmail(), userPwd: 'Wrong1234' },
          }),
        );
      }
      expect(logins.map((r) => r.status)).toEqual([422, 422, 422, 429]);
      expect(logins[3]!.body).toMatchObject({ code: 500, msg: 'hint_tooManyRequests' });
      expect(Number(logins[3]!.body.params![0])).toBeGreaterThan(0);
      expect(logins[3]!.headers['retry-after']).toBeDefined();

      const regs = [];
      for (let i = 0; i < 3; i++) {
        regs.push(
          await call(limited.app, 'POST', '/api/userInfo/reg', {
            form: { regType: '1', userAccount: uniqueEmail(), userPwd: GOOD_PASSWORD },
          }),
        );
      }
      expect(regs.map((r) => r.status)).toEqual([200, 200, 429]);

      const first = await call(limited.app, 'POST', '/api/userInfo/sendEmailVerificationCode', {
        form: { email: uniqueEmail() },
      });
      const second = await call(limited.app, 'POST', '/api/userInfo/sendEmailVerificationCode', {
        form: { email: uniqueEmail() },
      });
      expect([first.status, second.status]).toEqual([200, 429]);
      // Other calls are not affected.
      expect((await call(limited.app, 'GET', '/api/switchSet/list')).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
