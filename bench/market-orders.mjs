// Market orders per second through HTTP at 50 connections on PostgreSQL: each request opens a
// BTCUSDT contract at the current tick (margin into the margin account and the fee through the
// ledger, the position and its evidence stored, its liquidation level added to the triggers), as
// `contractPosition/open` does for users. 50 users, each funded by a deposit an operator approved
// through the console API, take turns. Target: ≥ 500 orders/s with p99 ≤ 50 ms, measured twice:
// the most orders per second 50 busy connections get (closed loop), and the latency of orders
// arriving at 500 a second (open loop).
import {
  cannon,
  fundedUsers,
  postJson,
  withPostgresServer,
  steadyRate,
  summary,
  withCpu,
} from './lib.mjs';

const USERS = 50;
const TARGET_RATE = 500;
const WARM_UP_SECONDS = 5;
const STEADY_SECONDS = 20;
const RATE = Number(process.env.BENCH_ORDER_RATE ?? TARGET_RATE);

function prepareUsers(base, dataDir) {
  return fundedUsers(base, dataDir, { count: USERS, name: 'orders' });
}

export async function benchMarketOrders() {
  return withPostgresServer('orders', async (server, dataDir) => {
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
    const order = (sequence) => ({
      productType: 2,
      productCode: 'BTCUSDT',
      orderDirection: 1 + (sequence % 2),
      leverage: 10,
      quantity: '0.001',
      requestId: `bench-${process.pid}-${sequence}`,
    });
    const authorization = (sequence) => ({
      authorization: `Bearer ${users[sequence % users.length].token}`,
    });
    // Open loop at the target rate: 500 orders a second leave on schedule over up to 50
    // connections whatever the answers do; latency counts from each order's due moment. The
    // first seconds of the stream warm the server up (its compiler, the database's caches and
    // connections) and are not counted.
    const steady = await withCpu(server.pid, () =>
      steadyRate({
        url: server.url,
        path: '/api/contractPosition/open',
        connections: 50,
        rate: RATE,
        warmUp: WARM_UP_SECONDS,
        duration: STEADY_SECONDS,
        body: order,
        headers: authorization,
      }),
    );
    let sequence = Math.round(RATE * (WARM_UP_SECONDS + STEADY_SECONDS));
    // Closed loop: each of the 50 connections sends its next order as soon as the last is
    // answered, so this finds the most orders per second. Its latency is queueing by design: with
    // 50 orders always in flight, the mean is 50 / (orders per second) (Little's law).
    const requests = [
      {
        method: 'POST',
        path: '/api/contractPosition/open',
        setupRequest(request) {
          sequence += 1;
          return {
            ...request,
            headers: { 'content-type': 'application/json', ...authorization(sequence) },
            body: JSON.stringify(order(sequence)),
          };
        },
      },
    ];
    const saturated = await withCpu(server.pid, async () =>
      summary(await cannon({ url: server.url, requests, connections: 50, duration: 10 })),
    );
    return [
      {
        name: 'market orders (contract opens) on PostgreSQL, 50 connections, closed loop',
        ...saturated,
        target: '≥ 500 orders/s',
        pass: saturated.non2xx === 0 && saturated.requestsPerSecond >= TARGET_RATE,
      },
      {
        name: `market orders (contract opens) on PostgreSQL, ${RATE} orders/s over 50 connections`,
        ...steady,
        target: 'p99 ≤ 50 ms',
        pass:
          steady.non2xx === 0 &&
          steady.errors === 0 &&
          RATE >= TARGET_RATE &&
          steady.requestsPerSecond >= RATE * 0.98 &&
          steady.latencyP99Ms <= 50,
      },
    ];
  });
}

if (import.meta.url === `file://${process.argv[1]}`)
  console.log(JSON.stringify(await benchMarketOrders(), null, 2));
