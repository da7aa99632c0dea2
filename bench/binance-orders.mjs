// Signed order placement through the Binance-compatible API against the app's own coin-to-coin
// order call, on one server and one run, on PostgreSQL with the simulated feed. 50 users funded by
// operator-approved deposits, each with an API key made through the API, take turns placing
// market buys of 0.0001 BTC: through `POST /binance/api/v3/order` (a form body signed per request
// at the moment it is sent: timestamp, HMAC-SHA256 over the body, X-MBX-APIKEY; the server looks
// the key up, verifies the signature, claims it once, checks address and permission, writes the
// usage log) and through `POST /api/bibiTradeOrder/buy` with the user's session (JSON). Both end
// in the same trading service (ledger, fee, holding, evidence). Open loop at 500 orders a second
// over up to 50 connections, latency from each order's due moment, 20 s after 5 s of warm-up,
// the two calls alternating twice (app, Binance, app, Binance) so that a drift of the machine
// touches both. Target (issue 20): 500 orders/s with the Binance call's p99 within 1.5× the app's.
import { createHmac } from 'node:crypto';
import { fundedUsers, postJson, withPostgresServer, steadyRate, withCpu } from './lib.mjs';

const USERS = 50;
const TARGET_RATE = 500;
const WARM_UP_SECONDS = 5;
const STEADY_SECONDS = 20;
const RATE = Number(process.env.BENCH_ORDER_RATE ?? TARGET_RATE);
const ROUNDS = 2;
const QUANTITY = '0.0001';

/** The benchmark's users, each with an API key (read and trade) made through the API. */
function prepareUsers(base, dataDir) {
  return fundedUsers(base, dataDir, {
    count: USERS,
    name: 'binance',
    prepare: async (token) => {
      const key = await postJson(
        `${base}/api/apiKey/create`,
        { label: 'bench', permissions: ['read', 'trade'] },
        token,
      );
      return { apiKey: key.apiKey, secret: key.secret };
    },
  });
}

/** A signed Binance order of a user, made now: its timestamp and signature are this moment's. */
function binanceOrder(user, clientOrderId) {
  const body = new URLSearchParams({
    symbol: 'BTCUSDT',
    side: 'BUY',
    type: 'MARKET',
    quantity: QUANTITY,
    newClientOrderId: clientOrderId,
    newOrderRespType: 'FULL',
    timestamp: String(Date.now()),
    recvWindow: '10000',
  }).toString();
  const signature = createHmac('sha256', user.secret).update(body).digest('hex');
  return {
    path: '/binance/api/v3/order',
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-mbx-apikey': user.apiKey,
    },
    body: `${body}&signature=${signature}`,
  };
}

/** The app's own coin-to-coin market buy of a user, with the session. */
function appOrder(user, requestId) {
  return {
    path: '/api/bibiTradeOrder/buy',
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${user.token}` },
    body: JSON.stringify({ productCode: 'BTCUSDT', orderType: 1, quantity: QUANTITY, requestId }),
  };
}

/** Sends one order first: a refusal (no price yet, a signing mistake) says why. */
async function once(base, order) {
  const response = await fetch(`${base}${order.path}`, {
    method: order.method,
    headers: order.headers,
    body: order.body,
  });
  const answer = await response.json();
  // The app's envelope says 200 in `code`; Binance's answers carry a `code` only when refused.
  if (!response.ok || (answer.code !== undefined && answer.code !== 200))
    throw new Error(`${order.path}: ${response.status} ${JSON.stringify(answer)}`);
}

export async function benchBinanceOrders() {
  return withPostgresServer('binance', async (server, dataDir) => {
    const users = await prepareUsers(server.url, dataDir);
    // Client order ids are at most 36 characters: the run's mark is short.
    const run = `${process.pid.toString(36)}${Date.now().toString(36)}`;
    await once(server.url, appOrder(users[0], `app-${run}-first`));
    await once(server.url, binanceOrder(users[0], `bn-${run}-first`));
    const kinds = {
      app: (i) => appOrder(users[i % USERS], `app-${run}-${i}`),
      binance: (i) => binanceOrder(users[i % USERS], `bn-${run}-${i}`),
    };
    const runs = { app: [], binance: [] };
    for (let round = 0; round < ROUNDS; round++) {
      for (const kind of ['app', 'binance']) {
        const make = kinds[kind];
        const offset = (round + 1) * 1_000_000;
        runs[kind].push(
          await withCpu(server.pid, () =>
            steadyRate({
              url: server.url,
              connections: 50,
              rate: RATE,
              warmUp: WARM_UP_SECONDS,
              duration: STEADY_SECONDS,
              request: (i) => make(offset + i),
            }),
          ),
        );
      }
    }
    const worst = (kind) => Math.max(...runs[kind].map((result) => result.latencyP99Ms));
    const ratios = runs.binance.map(
      (result, i) => Math.round((result.latencyP99Ms / runs.app[i].latencyP99Ms) * 100) / 100,
    );
    const clean = (result) =>
      result.non2xx === 0 && result.errors === 0 && result.requestsPerSecond >= RATE * 0.98;
    return [
      ...runs.app.map((result, i) => ({
        name: `coin-to-coin market buys, the app's call (session), ${RATE}/s over 50 connections, round ${i + 1}`,
        ...result,
      })),
      ...runs.binance.map((result, i) => ({
        name: `coin-to-coin market buys, signed through /binance, ${RATE}/s over 50 connections, round ${i + 1}`,
        ...result,
        p99AgainstApp: ratios[i],
      })),
      {
        name: `signed Binance orders at ${RATE}/s against the app's own order call (p99, worst round of each)`,
        binanceP99Ms: worst('binance'),
        appP99Ms: worst('app'),
        ratio: Math.round((worst('binance') / worst('app')) * 100) / 100,
        target: `${TARGET_RATE} orders/s, p99 ≤ 1.5 × the app's`,
        pass:
          RATE >= TARGET_RATE &&
          [...runs.app, ...runs.binance].every(clean) &&
          worst('binance') <= 1.5 * worst('app'),
      },
    ];
  });
}

if (import.meta.url === `file://${process.argv[1]}`)
  console.log(JSON.stringify(await benchBinanceOrders(), null, 2));
