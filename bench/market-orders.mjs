// Market orders per second through HTTP at 50 connections on PostgreSQL: each request opens a
// BTCUSDT contract at the current tick (margin into the margin account and the fee through the
// ledger, the position and its evidence stored, its liquidation level added to the triggers), as
// `contractPosition/open` does for users. 50 users, each funded by a deposit an operator approved
// through the console API, take turns. Target: ≥ 500 orders/s with p99 ≤ 50 ms.
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  approvedDeposit,
  cannon,
  createDatabase,
  operatorLogin,
  postJson,
  startServer,
  summary,
} from './lib.mjs';

const USERS = 50;
const PASSWORD = 'Bench12345';

async function prepareUsers(base, dataDir) {
  const admin = await operatorLogin(base, dataDir);
  const users = [];
  for (let i = 0; i < USERS; i++) {
    const reg = await postJson(`${base}/api/userInfo/reg`, {
      regType: 1,
      userAccount: `orders${i}.${Date.now()}@example.com`,
      userPwd: PASSWORD,
    });
    await approvedDeposit(base, admin, reg.token, '500000', `bench-dep-${i}`);
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
    await postJson(
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
