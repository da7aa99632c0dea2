/**
 * Two server instances on one database and one Redis: clients of either instance receive the same
 * ticks, exactly one instance runs the feed (the database lease), and when it stops the other takes
 * over. Runs against the Redis at REDIS_TEST_URL (default redis://127.0.0.1:6379); CI requires it.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import type net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import WebSocket from 'ws';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_USERNAME, adminLogin } from '../src/admin-login';
import { buildApp } from '../src/app';
import { systemClock } from '../src/lib/clock';
import { DEFAULT_CATALOGUE } from '../src/market/catalogue';
import { RedisTickBus } from '../src/market/cluster';
import {
  call,
  createTestDatabase,
  deposit,
  registerTestApp,
  registerUser,
  testConfig,
  type TestDatabase,
} from './helpers';
import { operatorReady } from './support/admin-api';
import { openEventStream } from './support/event-stream';
import { REDIS_URL, redisAvailable } from './support/redis';
import { flatPng } from './support/test-images';

const available = await redisAvailable('the cluster test is');

const catalogue = DEFAULT_CATALOGUE.filter((product) => product.code === 'BTCUSDT');

interface Instance {
  app: FastifyInstance;
  url: string;
}

let database: TestDatabase;
const prefix = `bourse-test-${randomBytes(4).toString('hex')}`;
const instances: Instance[] = [];

async function startInstance(): Promise<Instance> {
  const app = await buildApp({
    config: testConfig({
      MARKET_FEED: 'simulated',
      MARKET_TICK_MS: '100',
      MARKET_LEASE_MS: '600',
      REDIS_URL,
      REDIS_PREFIX: prefix,
    }),
    db: database.db,
    clock: systemClock,
    logger: pino({ level: 'silent' }),
    catalogue,
    history: { days: 3, minuteDays: 0 },
  });
  registerTestApp(app, database.db, systemClock);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as net.AddressInfo;
  const instance = { app, url: `ws://127.0.0.1:${port}/ws` };
  instances.push(instance);
  return instance;
}

interface TickerMessage {
  seq: number;
  data: { tickerInfo: { nowPrice: string; time: number; sequence: number } };
}

/** Collects `count` ticker messages of BTCUSDT from an instance's /ws. */
function collectTicks(url: string, count: number): Promise<TickerMessage[]> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    const received: TickerMessage[] = [];
    const timer = setTimeout(() => {
      socket.terminate();
      reject(new Error(`only ${received.length} of ${count} ticks arrived`));
    }, 10_000);
    socket.on('open', () =>
      socket.send(JSON.stringify({ op: 'subscribe', topic: 'ticker:2:BTCUSDT' })),
    );
    let done = false;
    socket.on('message', (raw) => {
      // Frames of one burst arrive together: those after the count are not this call's.
      if (done) return;
      const message = JSON.parse(raw.toString()) as TickerMessage & { op: string };
      if (message.op !== 'data') return;
      received.push(message);
      if (received.length === count) {
        done = true;
        clearTimeout(timer);
        socket.close();
        resolve(received);
      }
    });
    socket.on('error', reject);
  });
}

const leaders = () => instances.filter((instance) => instance.app.services.marketEngine?.leader);

describe.runIf(available)('two instances sharing Redis and the database', () => {
  beforeAll(async () => {
    database = await createTestDatabase();
    await startInstance();
    await startInstance();
  });

  afterAll(async () => {
    for (const instance of instances) await instance.app.close().catch(() => undefined);
    await database?.dispose();
  });

  it('runs the feed on exactly one instance, and both deliver the same ticks', async () => {
    expect(leaders()).toHaveLength(1);
    const [first, second] = await Promise.all([
      collectTicks(instances[0]!.url, 5),
      collectTicks(instances[1]!.url, 5),
    ]);
    const key = (message: TickerMessage) =>
      `${message.data.tickerInfo.time}:${message.data.tickerInfo.nowPrice}`;
    const common = first.map(key).filter((tick) => second.map(key).includes(tick));
    expect(common.length).toBeGreaterThanOrEqual(3);
    // Each topic's sequence runs without gaps on each instance.
    for (const messages of [first, second]) {
      for (let index = 1; index < messages.length; index++) {
        expect(messages[index]!.seq).toBe(messages[index - 1]!.seq + 1);
      }
    }
  });

  it('announces each instance through Redis for the console, with the id of its lease', async () => {
    const registry = await RedisTickBus.connect(REDIS_URL, prefix);
    try {
      // Each announces itself at start, then every 10 s.
      await expect.poll(async () => (await registry.instances()).length).toBe(2);
      const announced = await registry.instances();
      expect(new Set(announced.map((record) => record.id)).size).toBe(2);
      for (const record of announced) {
        expect(record).toMatchObject({
          host: expect.any(String),
          pid: process.pid,
          wsConnections: expect.any(Number),
        });
        expect(Date.parse(record.startTime)).not.toBeNaN();
      }
      // Each carries its /ws connections (the dashboard adds them up): a socket opened on the
      // second shows in its next announcement.
      const socket = new WebSocket(instances[1]!.url);
      try {
        await expect
          .poll(
            async () =>
              (await registry.instances()).reduce((sum, record) => sum + record.wsConnections, 0),
            { timeout: 15_000, interval: 250 },
          )
          .toBeGreaterThanOrEqual(1);
      } finally {
        socket.close();
      }
      // The lease's holder is one of them, under the id it announced.
      const { rows } = await database.db.query<{ holder: string }>(
        'SELECT holder FROM market_lease',
      );
      expect(announced.map((record) => record.id)).toContain(rows[0]!.holder);
    } finally {
      await registry.close();
    }
  });

  it('tells a user on the other instance about the positions opened through this one', async () => {
    const [here, there] = instances;
    const user = await registerUser(here!.app);
    await deposit(database.db, user.userId, '1000');
    const socket = new WebSocket(there!.url);
    const heard = new Promise<{ kind: string; position: { orderNo: string } }>(
      (resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no positions message arrived')), 10_000);
        socket.on('message', (raw) => {
          const message = JSON.parse(raw.toString()) as { op: string; topic: string; data: never };
          if (message.op === 'authed')
            socket.send(JSON.stringify({ op: 'subscribe', topic: 'positions' }));
          if (message.op === 'subscribed') ready();
          if (message.op === 'data' && message.topic === 'positions') {
            clearTimeout(timer);
            resolve(message.data);
          }
        });
      },
    );
    let ready = () => {};
    const subscribed = new Promise<void>((resolve) => (ready = resolve));
    socket.on('open', () => socket.send(JSON.stringify({ op: 'auth', token: user.token })));
    await subscribed;
    const opened = await call(here!.app, 'POST', '/api/contractPosition/open', {
      token: user.token,
      json: {
        productType: 2,
        productCode: 'BTCUSDT',
        orderDirection: 1,
        leverage: 10,
        quantity: '0.001',
        requestId: 'cluster-open-1',
      },
    });
    expect(opened.status).toBe(200);
    expect(await heard).toMatchObject({
      kind: 'contract',
      position: { orderNo: opened.body.data.orderNo },
    });
    socket.close();
    // Its liquidation level rests in the database: the other instance learns it on refresh.
    const key = `contract:${opened.body.data.id}:liq`;
    await expect
      .poll(
        () =>
          there!.app.services
            .triggers!.refresh()
            .then(() => there!.app.services.triggers!.knows(key)),
        {
          timeout: 5000,
          interval: 100,
        },
      )
      .toBe(true);
  });

  it('tells a finance console on the other instance of a deposit this one took', async () => {
    const [first, second] = instances as [Instance, Instance];
    const dir = await mkdtemp(path.join(os.tmpdir(), 'bourse-cluster-'));
    try {
      const seeded = await adminLogin(
        testConfig({ DATA_DIR: path.join(dir, 'data') }),
        database.db,
        systemClock,
      );
      const token = await operatorReady(first.app, ADMIN_USERNAME, seeded.password!);
      const { port } = second.app.server.address() as net.AddressInfo;
      const stream = await openEventStream(
        `http://127.0.0.1:${port}/admin-api/review/events`,
        token,
      );
      try {
        await expect.poll(() => stream.events.length).toBe(1);
        const user = await registerUser(first.app);
        const submitted = await call(first.app, 'POST', '/api/userRecharge/inMoney', {
          token: user.token,
          json: {
            channelId: 2,
            amount: '60',
            proofImage: `data:image/png;base64,${(await flatPng(4, 4)).toString('base64')}`,
            requestId: `cluster-${randomBytes(6).toString('hex')}`,
          },
        });
        expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
        await expect
          .poll(() => stream.events.filter((event) => event.event === 'queue').map((e) => e.data))
          .toEqual([{ queue: 'recharges', id: submitted.body.data.id }]);
      } finally {
        stream.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('hands the feed to the other instance when the leader stops', async () => {
    const [leader] = leaders();
    const follower = instances.find((instance) => instance !== leader)!;
    await leader!.app.close();
    instances.splice(instances.indexOf(leader!), 1);
    await expect
      .poll(() => follower.app.services.marketEngine?.leader, { timeout: 5000, interval: 50 })
      .toBe(true);
    const ticks = await collectTicks(follower.url, 3);
    expect(ticks).toHaveLength(3);
    // The stopped instance withdrew its announcement: the console lists the one left.
    const registry = await RedisTickBus.connect(REDIS_URL, prefix);
    try {
      expect(await registry.instances()).toHaveLength(1);
    } finally {
      await registry.close();
    }
  });
});
