/**
 * Identity verification (identityApi, consoleIdentityApi): the basic level with the spec's ID-card
 * rule, one request under review at a time and none once approved, the same request id answered
 * once; support reviews (finance may not), the user's authStatus and authLevel follow; the advanced
 * level only after the basic one and under its name, its three images decoded and re-encoded,
 * served to their owner and to support (each view audited), never to another user; a rejection's
 * reason reaches the user, who may ask again; features need the level an admin sets, refused
 * below it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_USERNAME, adminLogin } from '../src/admin-login';
import { call, createTestApp, registerUser, testConfig, type TestApp } from './helpers';
import { adminApiCall, operatorReady } from './support/admin-api';
import { flatPng, HTML, jpegWithGps } from './support/test-images';

let t: TestApp;
let dir: string;
const tokens = { admin: '', support: '', finance: '' };
let sequence = 0;

const dataUrl = (mime: string, data: Buffer) => `data:${mime};base64,${data.toString('base64')}`;

function apply(token: string, fields: Record<string, unknown>) {
  return call(t.app, 'POST', '/api/userAuthRecord/userAuthApply', {
    token,
    json: {
      authLevel: 0,
      realName: 'Ada Lovelace',
      idType: 0,
      idNumber: '11010519491231002X',
      requestId: `kyc-${Date.now()}-${++sequence}`,
      ...fields,
    },
  });
}

const detail = (token: string, authLevel: number) =>
  call(t.app, 'GET', '/api/userAuthRecord/detail', {
    token,
    query: { authLevel: String(authLevel) },
  });

const userInfo = async (token: string) =>
  (await call(t.app, 'GET', '/api/userInfo/getUserInfo', { token })).body.data as {
    authStatus: number;
    authLevel: number;
  };

const console_ = (method: 'GET' | 'POST', url: string, token: string, json?: unknown) =>
  method === 'GET'
    ? adminApiCall(t.app, method, url, { token, query: json as Record<string, string> })
    : adminApiCall(t.app, method, url, { token, json });

async function images() {
  const jpeg = await jpegWithGps();
  return {
    frontImage: dataUrl('image/jpeg', jpeg),
    backImage: dataUrl('image/png', await flatPng(640, 400)),
    holdImage: dataUrl(
      'image/jpeg',
      await sharp(await flatPng(400, 640))
        .jpeg()
        .toBuffer(),
    ),
  };
}

/** A user whose basic level is approved, under the name `realName`. */
async function basicUser(realName = 'Grace Hopper') {
  const user = await registerUser(t.app);
  const applied = await apply(user.token, { realName });
  expect(applied.status, JSON.stringify(applied.body)).toBe(200);
  const approved = await console_('POST', '/identity/approve', tokens.support, {
    id: applied.body.data.id,
  });
  expect(approved.status, JSON.stringify(approved.body)).toBe(200);
  return user;
}

beforeAll(async () => {
  t = await createTestApp();
  dir = await mkdtemp(path.join(os.tmpdir(), 'bourse-identity-'));
  const seeded = await adminLogin(testConfig({ DATA_DIR: path.join(dir, 'data') }), t.db, t.clock);
  tokens.admin = await operatorReady(t.app, ADMIN_USERNAME, seeded.password!);
  for (const role of ['support', 'finance'] as const) {
    const created = await adminApiCall(t.app, 'POST', '/operators/create', {
      token: tokens.admin,
      json: { username: `kyc-${role}`, password: 'steady orchard lamp', roles: [role] },
    });
    expect(created.status).toBe(200);
    tokens[role] = await operatorReady(t.app, `kyc-${role}`, 'steady orchard lamp');
  }
});

afterAll(async () => {
  await t.close();
  await rm(dir, { recursive: true, force: true });
});

describe('basic verification', () => {
  it('checks the document number by its type, on its field', async () => {
    const user = await registerUser(t.app);
    for (const [idType, idNumber] of [
      [0, '1234567890123456'], // 16 digits
      [0, '12345678901234567Y'],
      [2, 'AB-12345'],
      [1, 'ABC'],
    ] as const) {
      const refused = await apply(user.token, { idType, idNumber });
      expect(refused.status, `${idType} ${idNumber}`).toBe(400);
      expect(refused.body).toMatchObject({ msg: 'hint_idNumberInvalid', params: ['idNumber'] });
    }
    for (const idNumber of ['110105194912310', '11010519491231002x']) {
      const other = await registerUser(t.app);
      expect((await apply(other.token, { idNumber })).status, idNumber).toBe(200);
    }
    const passport = await apply(user.token, { idType: 2, idNumber: 'e1234567' });
    expect(passport.status).toBe(200);
    expect(passport.body.data).toMatchObject({ idType: 2, idNumber: 'E1****67', status: 0 });
  });

  it('takes one request at a time, answers a repeated request id once, and follows it on the user', async () => {
    const user = await registerUser(t.app);
    expect((await detail(user.token, 0)).body.data).toMatchObject({ status: -1, id: null });
    expect(await userInfo(user.token)).toMatchObject({ authStatus: 0, authLevel: -1 });

    const requestId = `kyc-once-${Date.now()}`;
    const first = await apply(user.token, { requestId });
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({
      authLevel: 0,
      status: 0,
      realName: 'Ada Lovelace',
      idNumber: '11**************2X',
      documents: [],
    });
    const again = await apply(user.token, { requestId });
    expect(again.body.data.id).toBe(first.body.data.id);
    const reused = await apply(user.token, { requestId, realName: 'Someone Else' });
    expect(reused.status).toBe(409);
    expect(reused.body.msg).toBe('hint_requestIdReused');
    const second = await apply(user.token, {});
    expect(second.status).toBe(409);
    expect(second.body.msg).toBe('hint_authUnderReview');
    expect(await userInfo(user.token)).toMatchObject({ authStatus: 1, authLevel: -1 });

    // Support reviews it; finance may not.
    const refused = await console_('POST', '/identity/approve', tokens.finance, {
      id: first.body.data.id,
    });
    expect(refused.status).toBe(403);
    const listed = await console_('GET', '/identity', tokens.support, {
      status: '0',
      userId: String(user.userId),
    });
    expect(listed.body.rows).toEqual([
      expect.objectContaining({ id: first.body.data.id, idNumber: '11010519491231002X' }),
    ]);
    const approved = await console_('POST', '/identity/approve', tokens.support, {
      id: first.body.data.id,
    });
    expect(approved.body).toMatchObject({ code: 200, data: { status: 1 } });
    const twice = await console_('POST', '/identity/approve', tokens.support, {
      id: first.body.data.id,
    });
    expect(twice.body.msg).toBe('hint_48');
    expect(await userInfo(user.token)).toMatchObject({ authStatus: 2, authLevel: 0 });
    expect((await detail(user.token, 0)).body.data).toMatchObject({ status: 1 });
    const more = await apply(user.token, {});
    expect(more.status).toBe(409);
    expect(more.body.msg).toBe('hint_authApproved');
    const audit = await console_('GET', '/audit', tokens.admin, {
      targetType: 'identity',
      targetId: String(first.body.data.id),
    });
    expect(audit.body.rows!.map((row: { action: string }) => row.action)).toEqual([
      'identity.approve',
    ]);
  });

  it('tells the user why it was rejected, and takes a new request', async () => {
    const user = await registerUser(t.app);
    const first = await apply(user.token, {});
    const rejected = await console_('POST', '/identity/reject', tokens.support, {
      id: first.body.data.id,
      reason: 'The document number does not match the name',
    });
    expect(rejected.body.data).toMatchObject({ status: 2 });
    expect((await detail(user.token, 0)).body.data).toMatchObject({
      status: 2,
      rejectReason: 'The document number does not match the name',
    });
    expect(await userInfo(user.token)).toMatchObject({ authStatus: 3, authLevel: -1 });
    const approveClosed = await console_('POST', '/identity/approve', tokens.support, {
      id: first.body.data.id,
    });
    expect(approveClosed.status).toBe(409);
    const again = await apply(user.token, { realName: 'Ada King' });
    expect(again.status).toBe(200);
    expect(await userInfo(user.token)).toMatchObject({ authStatus: 1 });
  });
});

describe('advanced verification', () => {
  it('needs the basic level approved, under the same name, and all three images', async () => {
    const fresh = await registerUser(t.app);
    const first = await apply(fresh.token, { authLevel: 1, ...(await images()) });
    expect(first.status).toBe(422);
    expect(first.body.msg).toBe('hint_authBasicFirst');

    const user = await basicUser('Grace Hopper');
    const renamed = await apply(user.token, {
      authLevel: 1,
      realName: 'Grace Murray',
      ...(await images()),
    });
    expect(renamed.body).toMatchObject({ msg: 'hint_authNameMismatch', params: ['realName'] });
    const { holdImage: _, ...two } = await images();
    const missing = await apply(user.token, { authLevel: 1, realName: 'Grace Hopper', ...two });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ msg: 'hint_paramRequired', params: ['holdImage'] });
    const html = await apply(user.token, {
      authLevel: 1,
      realName: 'grace  hopper',
      ...(await images()),
      backImage: dataUrl('image/png', Buffer.concat([await flatPng(64, 48), HTML])),
    });
    expect(html.status).toBe(415);
    expect(html.body).toMatchObject({ msg: 'hint_imageFormat', params: ['backImage'] });
    expect((await detail(user.token, 1)).body.data.status).toBe(-1);
  });

  it('keeps the images re-encoded, to their owner and to support, each view audited', async () => {
    const user = await basicUser('Katherine Johnson');
    const applied = await apply(user.token, {
      authLevel: 1,
      realName: 'KATHERINE JOHNSON',
      ...(await images()),
    });
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    const id = applied.body.data.id as number;
    expect(applied.body.data).toMatchObject({ authLevel: 1, status: 0 });
    expect([...applied.body.data.documents].sort()).toEqual(['back', 'front', 'hold']);

    const own = await t.app.inject({
      method: 'GET',
      url: `/api/userAuthRecord/document?id=${id}&side=front`,
      headers: { authorization: `Bearer ${user.token}` },
    });
    expect(own.statusCode).toBe(200);
    expect(own.headers['content-type']).toBe('image/jpeg');
    const meta = await sharp(own.rawPayload).metadata();
    expect(meta.format).toBe('jpeg');
    expect(meta.exif).toBeUndefined();

    const stranger = await registerUser(t.app);
    const other = await t.app.inject({
      method: 'GET',
      url: `/api/userAuthRecord/document?id=${id}&side=front`,
      headers: { authorization: `Bearer ${stranger.token}` },
    });
    expect(other.statusCode).toBe(404);

    const byFinance = await t.app.inject({
      method: 'GET',
      url: `/admin-api/identity/document?id=${id}&side=hold`,
      headers: { authorization: `Bearer ${tokens.finance}` },
    });
    expect(byFinance.statusCode).toBe(403);
    const bySupport = await t.app.inject({
      method: 'GET',
      url: `/admin-api/identity/document?id=${id}&side=hold`,
      headers: { authorization: `Bearer ${tokens.support}` },
    });
    expect(bySupport.statusCode).toBe(200);
    const audit = await console_('GET', '/audit', tokens.admin, {
      action: 'identity.viewDocument',
      targetId: String(id),
    });
    expect(audit.body.rows).toEqual([
      expect.objectContaining({ operatorName: 'kyc-support', after: { side: 'hold' } }),
    ]);

    await console_('POST', '/identity/approve', tokens.support, { id });
    expect(await userInfo(user.token)).toMatchObject({ authStatus: 2, authLevel: 1 });
  });
});

describe('what each level allows', () => {
  it('refuses withdrawals below the level an admin sets, and says so before', async () => {
    const user = await registerUser(t.app);
    const before = await call(t.app, 'GET', '/api/userAuthRecord/requirements', {
      token: user.token,
    });
    expect(before.body.data.requirements).toContainEqual({
      feature: 'withdraw',
      minLevel: -1,
      met: true,
    });
    const bySupport = await console_('POST', '/identity/requirements/save', tokens.support, {
      feature: 'withdraw',
      minLevel: 0,
    });
    expect(bySupport.status).toBe(403);
    const saved = await console_('POST', '/identity/requirements/save', tokens.admin, {
      feature: 'withdraw',
      minLevel: 0,
    });
    expect(saved.body.data).toEqual({ feature: 'withdraw', minLevel: 0 });
    try {
      const after = await call(t.app, 'GET', '/api/userAuthRecord/requirements', {
        token: user.token,
      });
      expect(after.body.data).toMatchObject({ authLevel: -1 });
      expect(after.body.data.requirements).toContainEqual({
        feature: 'withdraw',
        minLevel: 0,
        met: false,
      });
      const withdraw = () =>
        call(t.app, 'POST', '/api/userWithdraw/outMoney', {
          token: user.token,
          json: {
            channelId: 2,
            amount: '20',
            withPwd: '135790',
            addressId: 999_999,
            requestId: `kyc-withdraw-${++sequence}`,
          },
        });
      const refused = await withdraw();
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({ msg: 'hint_identityRequired', params: [1] });

      const applied = await apply(user.token, {});
      await console_('POST', '/identity/approve', tokens.support, { id: applied.body.data.id });
      // Verified: the withdrawal goes on to its own checks (this address is not the user's).
      const next = await withdraw();
      expect(next.body.msg).not.toBe('hint_identityRequired');
      const audit = await console_('GET', '/audit', tokens.admin, {
        action: 'identity.requirement',
      });
      expect(audit.body.rows![0]).toMatchObject({
        before: { minLevel: -1 },
        after: { minLevel: 0 },
      });
    } finally {
      await console_('POST', '/identity/requirements/save', tokens.admin, {
        feature: 'withdraw',
        minLevel: -1,
      });
    }
  });
});
