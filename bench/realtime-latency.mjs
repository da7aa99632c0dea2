// What reaches a person while they look, measured from the client (issue 21): one server on
// PostgreSQL; a user's app holds the /ws socket (topics `notifications` and `service`) and the
// support console holds its event stream (GET /admin-api/review/events). Each round, in turn:
// (1) an operator approves the user's deposit: time from sending the approval until the user's
// socket carries the notification; (2) the user writes to customer service: time from sending
// until the console's stream names the conversation; (3) the operator replies: time from sending
// until the user's socket carries the reply. 50 rounds, after 5 not counted. Target (issue 21):
// each under a second; p99 ≤ 1,000 ms.
import WebSocket from 'ws';
import { BENCH_PASSWORD, operatorLogin, PNG_1X1, postJson, withPostgresServer } from './lib.mjs';

// 55 messages in all: customer service takes at most 60 a minute from one address.
const ROUNDS = 50;
const WARM_UP = 5;
const TARGET_MS = 1000;

/** The user's socket: signed in, on both topics; `next(topic, test)` waits for a message. */
async function userSocket(base, token) {
  const socket = new WebSocket(`${base.replace(/^http/, 'ws')}/ws`, { perMessageDeflate: false });
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  const waiting = [];
  socket.on('message', (raw) => {
    const message = JSON.parse(String(raw));
    if (process.env.BENCH_DEBUG) console.error('ws', String(raw).slice(0, 200));
    const at = performance.now();
    for (const wait of [...waiting])
      if (message.topic === wait.topic && wait.test(message.data)) {
        waiting.splice(waiting.indexOf(wait), 1);
        wait.resolve(at);
      }
  });
  const replied = (op) =>
    new Promise((resolve) => {
      const listen = (raw) => {
        const message = JSON.parse(String(raw));
        if (message.op === op || message.op === 'error') {
          socket.off('message', listen);
          resolve(message);
        }
      };
      socket.on('message', listen);
    });
  socket.send(JSON.stringify({ op: 'auth', token }));
  await replied('authed');
  for (const topic of ['notifications', 'service']) {
    socket.send(JSON.stringify({ op: 'subscribe', topic }));
    await replied('subscribed');
  }
  return {
    next: (topic, test) => new Promise((resolve) => waiting.push({ topic, test, resolve })),
    close: () => socket.close(),
  };
}

/** The console's event stream; `next(test)` waits for a queue event. */
async function consoleStream(base, token) {
  const controller = new AbortController();
  const response = await fetch(`${base}/admin-api/review/events`, {
    headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
    signal: controller.signal,
  });
  if (!response.ok) throw new Error(`review/events: ${response.status}`);
  const waiting = [];
  const decoder = new TextDecoder();
  let buffer = '';
  void (async () => {
    try {
      for await (const chunk of response.body) {
        const at = performance.now();
        buffer += decoder.decode(chunk, { stream: true });
        let end;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = frame.split('\n').find((line) => line.startsWith('data: '));
          if (!frame.startsWith('event: queue') || !data) continue;
          const event = JSON.parse(data.slice('data: '.length));
          if (process.env.BENCH_DEBUG) console.error('sse', data.slice(0, 200));
          for (const wait of [...waiting])
            if (wait.test(event)) {
              waiting.splice(waiting.indexOf(wait), 1);
              wait.resolve(at);
            }
        }
      }
    } catch {
      // Aborted at the end.
    }
  })();
  return {
    next: (test) => new Promise((resolve) => waiting.push({ test, resolve })),
    close: () => controller.abort(),
  };
}

function figures(name, samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]);
  const p99 = at(0.99);
  return {
    name,
    samples: sorted.length,
    latencyP50Ms: at(0.5),
    latencyP99Ms: p99,
    latencyMaxMs: Math.round(sorted.at(-1)),
    target: `p99 ≤ ${TARGET_MS} ms`,
    pass: p99 <= TARGET_MS,
  };
}

export async function benchRealtimeLatency() {
  return withPostgresServer('realtime', async (server, dataDir) => {
    const base = server.url;
    const admin = await operatorLogin(base, dataDir);
    const user = await postJson(`${base}/api/userInfo/reg`, {
      regType: 1,
      userAccount: `realtime.${Date.now()}@example.com`,
      userPwd: BENCH_PASSWORD,
    });
    const socket = await userSocket(base, user.token);
    const stream = await consoleStream(base, admin.token);
    const run = `${process.pid.toString(36)}${Date.now().toString(36)}`;
    const samples = { deposit: [], toDesk: [], toUser: [] };
    let conversationId;
    try {
      for (let round = 0; round < WARM_UP + ROUNDS; round++) {
        const counted = round >= WARM_UP;
        // (1) A deposit approved: the user's notification.
        const recharge = await postJson(
          `${base}/api/userRecharge/inMoney`,
          {
            channelId: 2,
            amount: '10',
            proofImage: PNG_1X1,
            requestId: `rt-${run}-dep-${round}`,
          },
          user.token,
        );
        const notified = socket.next('notifications', (data) => data?.type === 'depositApproved');
        const approvedAt = performance.now();
        await postJson(`${base}/admin-api/recharges/approve`, { id: recharge.id }, admin.token);
        const deposit = (await notified) - approvedAt;
        // (2) The user writes: the console hears of it.
        const heard = stream.next((event) => event.queue === 'service');
        const sentAt = performance.now();
        const sent = await postJson(
          `${base}/api/service/send`,
          { content: `Question ${round}`, requestId: `rt-${run}-ask-${round}` },
          user.token,
        );
        const toDesk = (await heard) - sentAt;
        conversationId ??= sent.conversationId;
        // (3) The operator replies: the user's socket carries it.
        const reply = `Answer ${round}`;
        const arrived = socket.next(
          'service',
          (data) => data?.type === 'message' && data.message?.content === reply,
        );
        const repliedAt = performance.now();
        await postJson(
          `${base}/admin-api/service/send`,
          { conversationId, content: reply, requestId: `rt-${run}-reply-${round}` },
          admin.token,
        );
        const toUser = (await arrived) - repliedAt;
        if (counted) {
          samples.deposit.push(deposit);
          samples.toDesk.push(toDesk);
          samples.toUser.push(toUser);
        }
      }
    } finally {
      socket.close();
      stream.close();
    }
    return [
      figures("deposit approved → notification on the user's open app (/ws)", samples.deposit),
      figures("user's message → the support console's stream", samples.toDesk),
      figures("operator's reply → the user's chat (/ws)", samples.toUser),
    ];
  });
}

if (import.meta.url === `file://${process.argv[1]}`)
  console.log(JSON.stringify(await benchRealtimeLatency(), null, 2));
