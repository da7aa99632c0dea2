// Market orders per second through HTTP at 50 connections on PostgreSQL: each request opens a
// BTCUSDT contract at the current tick (margin into the margin account and the fee through the
// ledger, the position and its evidence stored, its liquidation level added to the triggers), as
// `contractPosition/open` does for users. 50 users, each funded by a deposit an operator approved
// through the console API, take turns. Target: ≥ 500 orders/s with p99 ≤ 50 ms.
import { readFile } from 'node:fs/promises';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { cannon, createDatabase, startServer, summary } from './lib.mjs';

const USERS = 50;
const PASSWORD = 'Bench12345';
const TRC20_CHANNEL = 2;
const PNG_1X1 =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

async function post(url, body, token) {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });
  const json = await response.json();
  if (json.code !== 200) throw new Error(`${url}: ${JSON.stringify(json)}`);
  return json.data;
}

async function prepareUsers(base, dataDir) {
  const password = (await readFile(path.join(dataDir, 'admin-login.txt'), 'utf8')).trim();
  const admin = await post(`${base}/admin-api/auth/login`, { username: 'admin', password });
  const users = [];
  for (let i = 0; i < USERS; i++) {
    const reg = await post(`${base}/api/userInfo/reg`, {
      regType: 1,
      userAccount: `orders${i}.${Date.now()}@example.com`,
      userPwd: PASSWORD,
    });
    const recharge = await post(
      `${base}/api/userRecharge/inMoney`,
      {
        channelId: TRC20_CHANNEL,
        amount: '500000',
        proofImage: PNG_1X1,
        requestId: `bench-dep-${i}`,
      },
      reg.token,
    );
    await post(`${base}/admin-api/recharges/approve`, { id: recharge.id }, admin.token);
    users.push({ token: reg.token });
  }
  return users;
}

export async function benchMarketOrders() {
  const database = await createDatabase('bourse_bench_orders');
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'bourse-bench-orders-'));
  const port = 4000 + Math.floor(Math.random() * 900);
  const server = await startServer({
    port,
    dataDir,
    env: { DATABASE_URL: database.url, DATABASE_POOL_MAX: '20', MARKET_FEED: 'simulated' },
  });
  try {
    const users = await prepareUsers(server.url, dataDir);
    // One order first: a refusal (closed market, missing feed) says why instead of a count.
    await post(
      `${server.url}/api/contractPosition/open`,
      {
        productType: 2,
        productCode: 'BTCUSDT',
        orderDirection: 1,
        leverage: 10,
        quantity: '0.001',
        requestId: `bench-${process.pid}-first`,
      },
      users[0].token,
    );
    let sequence = 0;
    const requests = [
      {
        method: 'POST',
        path: '/api/contractPosition/open',
        setupRequest(request) {
          sequence += 1;
          const user = users[sequence % users.length];
          return {
            ...request,
            headers: { 'content-type': 'application/json', authorization: `Bearer ${user.token}` },
            body: JSON.stringify({
              productType: 2,
              productCode: 'BTCUSDT',
              orderDirection: 1 + (sequence % 2),
              leverage: 10,
              quantity: '0.001',
              requestId: `bench-${process.pid}-${sequence}`,
            }),
          };
        },
      },
    ];
    const result = summary(
      await cannon({ url: server.url, requests, connections: 50, duration: 10 }),
    );
    return [
      {
        name: 'market orders (contract opens) on PostgreSQL, 50 connections',
        ...result,
        target: '≥ 500 orders/s, p99 ≤ 50 ms',
        pass: result.non2xx === 0 && result.requestsPerSecond >= 500 && result.latencyP99Ms <= 50,
      },
    ];
  } finally {
    await server.stop();
    await database.drop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`)
  console.log(JSON.stringify(await benchMarketOrders(), null, 2));
