// Fan-out over /ws. Subscribers connect to the real server (simulated feed, one tick a second per
// product) and each follows the ticker topics of the first TOPICS crypto pairs (16: 32,000
// messages a second at 2,000 subscribers, all sent in the same instant each second); the bench counts messages
// delivered per second and the delay from a tick's time (stamped when it leaves the feed) to its
// arrival. Targets at 2,000 subscribers: >= 30,000 messages/s and p99 <= 100 ms; it also reports
// the largest subscriber count tried that keeps p99 <= 100 ms. Clients run in a child process of
// their own, as real clients would not share the server's event loop.
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { startServer } from './lib.mjs';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const COUNTS = (process.env.BENCH_SUBSCRIBERS ?? '500,1000,2000,3000,4000').split(',').map(Number);
const TARGET_SUBSCRIBERS = 2000;
const TOPICS = Number(process.env.BENCH_TOPICS ?? 16);

function percentile(sorted, p) {
  return sorted.length === 0
    ? null
    : sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
}

/** Runs in the child: `count` clients for SECONDS, then reports delivered messages and delays. */
async function clients(url, topics, count) {
  const sockets = [];
  const delays = [];
  let messages = 0;
  let measuring = false;
  let dropped = 0;
  await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise((resolve, reject) => {
          const socket = new WebSocket(url, { perMessageDeflate: false });
          socket.on('open', () => {
            for (const topic of topics) socket.send(JSON.stringify({ op: 'subscribe', topic }));
            resolve();
          });
          socket.on('error', reject);
          socket.on('close', () => (dropped += 1));
          socket.on('message', (raw) => {
            if (!measuring) return;
            // Every message counts; one in ten is decoded for its delay (decoding each one would
            // measure this client rather than the server).
            messages += 1;
            if (messages % 10 !== 0) return;
            const text = raw.toString();
            const time = /"time":(\d+)/.exec(text);
            if (time) delays.push(Date.now() - Number(time[1]));
          });
          sockets.push(socket);
        }),
    ),
  );
  await new Promise((resolve) => setTimeout(resolve, 2000));
  measuring = true;
  const started = Date.now();
  await new Promise((resolve) => setTimeout(resolve, SECONDS * 1000));
  measuring = false;
  const seconds = (Date.now() - started) / 1000;
  for (const socket of sockets) socket.terminate();
  delays.sort((a, b) => a - b);
  return {
    subscribers: count,
    messagesPerSecond: Math.round(messages / seconds),
    latencyP50Ms: percentile(delays, 0.5),
    latencyP99Ms: percentile(delays, 0.99),
    dropped,
  };
}

if (process.argv[2] === 'clients') {
  process.on('message', async ({ url, topics, count }) => {
    process.send(await clients(url, topics, count));
    process.exit(0);
  });
}

function runClients(url, topics, count) {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(import.meta.url), ['clients'], { stdio: 'inherit' });
    child.once('message', resolve);
    child.once('error', reject);
    child.send({ url, topics, count });
  });
}

export async function benchWsFanout() {
  const server = await startServer({ port: 4004, env: { MARKET_FEED: 'simulated' } });
  try {
    const list = await fetch(`${server.url}/api/cryptocurrencyProduct/list?pageSize=100`).then(
      (r) => r.json(),
    );
    const topics = list.rows.slice(0, TOPICS).map((row) => `ticker:2:${row.productCode}`);
    const url = `${server.url.replace('http', 'ws')}/ws`;
    const runs = [];
    for (const count of COUNTS) runs.push(await runClients(url, topics, count));
    const atTarget = runs.find((run) => run.subscribers === TARGET_SUBSCRIBERS);
    const holding = runs.filter((run) => run.latencyP99Ms !== null && run.latencyP99Ms <= 100);
    return {
      name: `/ws fan-out, each subscriber on ${topics.length} ticker topics (1 tick/s each), ${SECONDS} s per run`,
      runs,
      largestSubscribersWithP99Within100Ms: holding.length
        ? Math.max(...holding.map((run) => run.subscribers))
        : 0,
      target: `at ${TARGET_SUBSCRIBERS} subscribers: >= 30000 messages/s and p99 <= 100 ms`,
      pass: Boolean(
        atTarget && atTarget.messagesPerSecond >= 30_000 && atTarget.latencyP99Ms <= 100,
      ),
    };
  } finally {
    await server.stop();
  }
}

if (process.argv[2] !== 'clients' && import.meta.url === `file://${process.argv[1]}`)
  console.log(JSON.stringify(await benchWsFanout(), null, 2));
