/**
 * Payment proofs through the deposit call: hostile images (made here with sharp) are refused with
 * their message and leave nothing behind; a sound one is stored and served, to its owner and to
 * finance operators, as a re-encoded JPEG without EXIF or anything appended.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_USERNAME, adminLogin } from '../src/admin-login';
import { verifyLedger } from '../src/ledger/verify';
import { call, createTestApp, registerUser, testConfig, type TestApp } from './helpers';
import { operatorReady } from './support/admin-api';
import {
  flatJpeg,
  flatPng,
  hasGps,
  hostileImages,
  HTML,
  jpegWithGps,
  pngWithGps,
} from './support/test-images';

/** Seeded channel 2: USDT on TRC20, a proof required. */
const RECHARGE_USDT_TRC20 = 2;
const USDT = 3;

let t: TestApp;
let dir: string;
let adminToken: string;
let sequence = 0;

beforeAll(async () => {
  t = await createTestApp();
  dir = await mkdtemp(path.join(os.tmpdir(), 'bourse-proof-'));
  const seeded = await adminLogin(testConfig({ DATA_DIR: path.join(dir, 'data') }), t.db, t.clock);
  adminToken = await operatorReady(t.app, ADMIN_USERNAME, seeded.password!);
});
afterEach(async () => {
  expect((await verifyLedger(t.db)).problems).toEqual([]);
});
afterAll(async () => {
  await t.close();
  await rm(dir, { recursive: true, force: true });
});

const dataUrl = (mime: string, data: Buffer) => `data:${mime};base64,${data.toString('base64')}`;

function deposit(token: string, proofImage: string) {
  sequence += 1;
  return call(t.app, 'POST', '/api/userRecharge/inMoney', {
    token,
    json: {
      channelId: RECHARGE_USDT_TRC20,
      amount: '100',
      proofImage,
      requestId: `proof-${Date.now()}-${sequence}`,
    },
  });
}

/** What a user has left in the database: deposits, proofs, holds and USDT. */
async function traces(userId: number) {
  const { rows } = await t.db.query<{ recharges: number; proofs: number; holds: number }>(
    `SELECT (SELECT count(*)::int FROM user_recharge WHERE user_id = $1) AS recharges,
            (SELECT count(*)::int FROM recharge_proof p JOIN user_recharge r ON r.id = p.recharge_id
              WHERE r.user_id = $1) AS proofs,
            (SELECT count(*)::int FROM ledger_hold WHERE user_id = $1) AS holds`,
    [userId],
  );
  return rows[0]!;
}

async function balance(token: string) {
  const result = await call(t.app, 'GET', '/api/userInfo/userBalance', {
    token,
    query: { currencyId: String(USDT) },
  });
  return result.body.data as { amount: string; frozenAmount: string; totalAmount: string };
}

/** The proof as its owner and as an operator get it. */
async function served(id: number, token: string) {
  const own = await t.app.inject({
    method: 'GET',
    url: `/api/userRecharge/proof?id=${id}`,
    headers: { authorization: `Bearer ${token}` },
  });
  const operator = await t.app.inject({
    method: 'GET',
    url: `/admin-api/recharges/proof?id=${id}`,
    headers: { authorization: `Bearer ${adminToken}` },
  });
  expect(own.statusCode).toBe(200);
  expect(operator.statusCode).toBe(200);
  expect(operator.rawPayload.equals(own.rawPayload)).toBe(true);
  expect(operator.headers['content-type']).toBe(own.headers['content-type']);
  return own;
}

describe('deposit proofs', () => {
  it('refuses every hostile image, as a data URL or bare base64, and stores nothing', async () => {
    const expected = {
      format: [415, 'hint_proofFormat'],
      dimensions: [422, 'hint_proofDimensions'],
    };
    const results: Record<string, unknown> = {};
    const wanted: Record<string, unknown> = {};
    const users: { token: string; userId: number }[] = [];
    for (const { name, data, reason } of await hostileImages()) {
      // A user per image, so that one stored by mistake cannot hide the next behind the limit of
      // pending deposits.
      const user = await registerUser(t.app);
      users.push(user);
      // Labelled as a PNG, whatever it is: the server judges the bytes.
      for (const [how, proof] of [
        ['data URL', dataUrl('image/png', data)],
        ['bare', data.toString('base64')],
      ] as const) {
        const result = await deposit(user.token, proof);
        results[`${name} (${how})`] = [result.status, result.body.msg];
        wanted[`${name} (${how})`] = expected[reason];
        expect(JSON.stringify(result.body)).not.toContain('<html');
      }
    }
    expect(results).toEqual(wanted);
    for (const user of users) {
      expect(await traces(user.userId)).toEqual({ recharges: 0, proofs: 0, holds: 0 });
      expect(await balance(user.token)).toMatchObject({
        amount: '0.0000',
        frozenAmount: '0.0000',
        totalAmount: '0.0000',
      });
      const list = await call(t.app, 'GET', '/api/userRecharge/list', { token: user.token });
      expect(list.body.total).toBe(0);
    }
  });

  it('names both sides of the limit when an image is too large', async () => {
    const user = await registerUser(t.app);
    const result = await deposit(user.token, dataUrl('image/png', await flatPng(2449, 2449)));
    expect(result.status).toBe(422);
    expect(result.body).toMatchObject({ msg: 'hint_proofDimensions', params: [3264, 2448] });
  });

  it('stores a PNG with EXIF GPS as a JPEG without EXIF, served so to owner and operator', async () => {
    const user = await registerUser(t.app);
    const input = await pngWithGps();
    expect(hasGps((await sharp(input).metadata()).exif)).toBe(true);
    const result = await deposit(user.token, dataUrl('image/png', input));
    expect(result.status).toBe(200);
    expect(result.body.data).toMatchObject({ hasProof: true, status: 0 });

    const response = await served(result.body.data.id, user.token);
    expect(response.headers['content-type']).toBe('image/jpeg');
    const image = response.rawPayload;
    const metadata = await sharp(image).metadata();
    expect(metadata).toMatchObject({ format: 'jpeg', width: 64, height: 48, hasAlpha: false });
    expect(metadata.exif).toBeUndefined();
    expect(image.includes('Exif')).toBe(false);
    expect(image.includes('BourseTestCamera')).toBe(false);

    const { rows } = await t.db.query<{
      mime: string;
      width: number;
      height: number;
      sha256: string;
    }>('SELECT mime, width, height, sha256 FROM recharge_proof WHERE recharge_id = $1', [
      result.body.data.id,
    ]);
    expect(rows[0]).toEqual({
      mime: 'image/jpeg',
      width: 64,
      height: 48,
      sha256: createHash('sha256').update(image).digest('hex'),
    });
    // Nothing is credited or held before review.
    expect(await balance(user.token)).toMatchObject({ amount: '0.0000', frozenAmount: '0.0000' });
  });

  it('stores a JPEG upright, without its EXIF or the bytes after its end', async () => {
    const user = await registerUser(t.app);
    const rotated = await deposit(user.token, dataUrl('image/jpeg', await jpegWithGps()));
    expect(rotated.status).toBe(200);
    const upright = await sharp(
      (await served(rotated.body.data.id, user.token)).rawPayload,
    ).metadata();
    expect(upright).toMatchObject({ format: 'jpeg', width: 30, height: 40 });
    expect(upright.exif).toBeUndefined();

    const trailing = Buffer.concat([await flatJpeg(50, 20), HTML]);
    const result = await deposit(user.token, trailing.toString('base64'));
    expect(result.status).toBe(200);
    const response = await served(result.body.data.id, user.token);
    expect(response.headers['content-type']).toBe('image/jpeg');
    expect(response.rawPayload.includes('<html')).toBe(false);
    expect(response.rawPayload.includes('alert(1)')).toBe(false);
    expect(await sharp(response.rawPayload).metadata()).toMatchObject({ width: 50, height: 20 });
  });

  it('still serves a proof stored as a PNG before re-encoding, as a PNG', async () => {
    const user = await registerUser(t.app);
    const result = await deposit(user.token, dataUrl('image/png', await flatPng(8, 8)));
    expect(result.status).toBe(200);
    const png = await flatPng(12, 6);
    await t.db.query(
      `UPDATE recharge_proof SET mime = 'image/png', width = 12, height = 6, data = $2
       WHERE recharge_id = $1`,
      [result.body.data.id, png],
    );
    const response = await served(result.body.data.id, user.token);
    expect(response.headers['content-type']).toBe('image/png');
    expect(response.rawPayload.equals(png)).toBe(true);
  });
});
