/**
 * The review queues pushed to consoles (GET /admin-api/review/events): a deposit submitted and the
 * same deposit approved each reach a finance operator's open stream as they commit; a support
 * operator's stream carries the identity queue and no money queue; the stream closes once its session ends; without a
 * session the call is refused like any other.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_USERNAME, adminLogin } from '../src/admin-login';
import { call, createTestApp, registerUser, testConfig, type TestApp } from './helpers';
import { adminApiCall, operatorReady } from './support/admin-api';
import { openEventStream, type EventStreamReader } from './support/event-stream';
import { flatPng } from './support/test-images';

const RECHARGE_USDT_TRC20 = 2;
const PASSWORD = 'quiet meadow compass';

let t: TestApp;
let dir: string;
let url: string;
const tokens = { admin: '', finance: '', support: '' };
const streams: EventStreamReader[] = [];

async function stream(token: string): Promise<EventStreamReader> {
  const reader = await openEventStream(`${url}/admin-api/review/events`, token);
  streams.push(reader);
  return reader;
}

async function submitDeposit(token: string, amount: string): Promise<number> {
  const result = await call(t.app, 'POST', '/api/userRecharge/inMoney', {
    token,
    json: {
      channelId: RECHARGE_USDT_TRC20,
      amount,
      proofImage: `data:image/png;base64,${(await flatPng(4, 4)).toString('base64')}`,
      requestId: `events-${Date.now()}-${amount.replace('.', '-')}`,
    },
  });
  expect(result.status, JSON.stringify(result.body)).toBe(200);
  return result.body.data.id as number;
}

const queueEvents = (reader: EventStreamReader) =>
  reader.events.filter((event) => event.event === 'queue').map((event) => event.data);

beforeAll(async () => {
  // Sessions are read again every second: a stream outlives its session by at most that.
  t = await createTestApp({ env: { WS_SESSION_CHECK_MS: '1000' } });
  dir = await mkdtemp(path.join(os.tmpdir(), 'bourse-console-events-'));
  const seeded = await adminLogin(testConfig({ DATA_DIR: path.join(dir, 'data') }), t.db, t.clock);
  tokens.admin = await operatorReady(t.app, ADMIN_USERNAME, seeded.password!);
  for (const role of ['finance', 'support'] as const) {
    const created = await adminApiCall(t.app, 'POST', '/operators/create', {
      token: tokens.admin,
      json: { username: `events-${role}`, password: PASSWORD, roles: [role] },
    });
    expect(created.status).toBe(200);
    tokens[role] = await operatorReady(t.app, `events-${role}`, PASSWORD);
  }
  url = await t.app.listen({ port: 0, host: '127.0.0.1' });
});

afterAll(async () => {
  for (const reader of streams) reader.close();
  await t.close();
  await rm(dir, { recursive: true, force: true });
});

describe('review events', () => {
  it('tells a finance console of a deposit submitted, then of the same deposit approved', async () => {
    const finance = await stream(tokens.finance);
    expect(finance.status).toBe(200);
    await expect
      .poll(() => finance.events[0])
      .toEqual({
        event: 'ready',
        data: { queues: ['recharges', 'withdrawals'] },
      });
    const support = await stream(tokens.support);
    await expect
      .poll(() => support.events[0])
      .toEqual({ event: 'ready', data: { queues: ['identity', 'service'] } });

    const user = await registerUser(t.app);
    const id = await submitDeposit(user.token, '75');
    await expect.poll(() => queueEvents(finance)).toEqual([{ queue: 'recharges', id }]);

    const approved = await adminApiCall(t.app, 'POST', '/recharges/approve', {
      token: tokens.finance,
      json: { id },
    });
    expect(approved.status).toBe(200);
    await expect
      .poll(() => queueEvents(finance))
      .toEqual([
        { queue: 'recharges', id },
        { queue: 'recharges', id },
      ]);
    // Approving again changes nothing and tells no one.
    await adminApiCall(t.app, 'POST', '/recharges/approve', {
      token: tokens.finance,
      json: { id },
    });
    const second = await submitDeposit(user.token, '80');
    await expect.poll(() => queueEvents(finance).length).toBe(3);
    expect(queueEvents(finance)[2]).toEqual({ queue: 'recharges', id: second });
    // Support reads no money queue: its stream hears none of it.
    expect(queueEvents(support)).toEqual([]);
    // An identity request reaches support's stream, not finance's.
    const identity = await call(t.app, 'POST', '/api/userAuthRecord/userAuthApply', {
      token: user.token,
      json: {
        authLevel: 0,
        realName: 'Mary Somerville',
        idType: 2,
        idNumber: 'P1234567',
        requestId: `events-identity-${Date.now()}`,
      },
    });
    expect(identity.status, JSON.stringify(identity.body)).toBe(200);
    await expect
      .poll(() => queueEvents(support))
      .toEqual([{ queue: 'identity', id: identity.body.data.id }]);
    expect(queueEvents(finance)).toHaveLength(3);
  });

  it('closes a stream once its session ends', async () => {
    const finance = await stream(tokens.finance);
    await expect.poll(() => finance.events.length).toBe(1);
    const signedOut = await adminApiCall(t.app, 'POST', '/auth/logout', { token: tokens.finance });
    expect(signedOut.status).toBe(200);
    await finance.ended;
    tokens.finance = await operatorReady(t.app, 'events-finance', PASSWORD);
  });

  it('refuses a call without a live session', async () => {
    const refused = await openEventStream(`${url}/admin-api/review/events`, 'not-a-token');
    expect(refused.status).toBe(401);
    const response = await fetch(`${url}/admin-api/review/events`);
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ code: 401, msg: 'hint_unauthorized' });
  });
});
