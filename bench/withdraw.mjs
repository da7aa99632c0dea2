// Withdrawal requests per second through HTTP at 50 connections, on PostgreSQL and on PGlite:
// each one checks the withdrawal password (argon2id), freezes amount plus fee with a ledger hold
// and stores the request, as `userWithdraw/outMoney` does for users. 50 users, each funded by a
// deposit an operator approved through the console API, take turns.
import { readFile } from 'node:fs/promises';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { cannon, createDatabase, startServer, summary } from './lib.mjs';

const USERS = 50;
const WITH_PWD = '246810';
const PASSWORD = 'Bench12345';
const TRC20_CHANNEL = 2;
const PNG_1X1 =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
/** A TRC20 address of the right format (users bind their own). */
const ADDRESS = 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8';

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

/** The first operator, whose password the server keeps in its data folder. */
async function operatorLogin(base, dataDir) {
  const password = (await readFile(path.join(dataDir, 'admin-login.txt'), 'utf8')).trim();
  return post(`${base}/admin-api/auth/login`, { username: 'admin', password });
}

/** Users with a withdrawal password, a bound address and 500,000 USDT approved by an operator. */
async function prepareUsers(base, dataDir) {
  const admin = await operatorLogin(base, dataDir);
  const users = [];
  for (let i = 0; i < USERS; i++) {
    const reg = await post(`${base}/api/userInfo/reg`, {
      regType: 1,
      userAccount: `withdraw${i}.${Date.now()}@example.com`,
      userPwd: PASSWORD,
    });
    const token = reg.token;
    await post(
      `${base}/api/userInfo/updateUserWithPwd`,
      { newPwd: WITH_PWD, userPwd: PASSWORD },
      token,
    );
    const address = await post(
      `${base}/api/userWalletAddress/addUserWalletAddress`,
      { currencyId: 3, network: 'TRC20', address: ADDRESS },
      token,
    );
    const recharge = await post(
      `${base}/api/userRecharge/inMoney`,
      {
        channelId: TRC20_CHANNEL,
        amount: '500000',
        proofImage: PNG_1X1,
        requestId: `bench-dep-${i}`,
      },
      token,
    );
    await post(`${base}/admin-api/recharges/approve`, { id: recharge.id }, admin.token);
    users.push({ token, addressId: address.id });
  }
  return users;
}

async function run(label, env) {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'bourse-bench-withdraw-'));
  const port = 4000 + Math.floor(Math.random() * 900);
  const server = await startServer({ port, env, dataDir });
  try {
    const users = await prepareUsers(server.url, dataDir);
    let sequence = 0;
    const requests = [
      {
        method: 'POST',
        path: '/api/userWithdraw/outMoney',
        setupRequest(request) {
          sequence += 1;
          const user = users[sequence % users.length];
          return {
            ...request,
            headers: {
              'content-type': 'application/json',
              authorization: `Bearer ${user.token}`,
            },
            body: JSON.stringify({
              channelId: TRC20_CHANNEL,
              amount: '10',
              withPwd: WITH_PWD,
              addressId: user.addressId,
              requestId: `bench-${process.pid}-${sequence}`,
            }),
          };
        },
      },
    ];
    const result = summary(
      await cannon({ url: server.url, requests, connections: 50, duration: 10 }),
    );
    return {
      name: `withdrawals on ${label}, 50 connections`,
      ...result,
      pass: result.non2xx === 0,
    };
  } finally {
    await server.stop();
  }
}

export async function benchWithdraw() {
  const database = await createDatabase('bourse_bench_withdraw');
  try {
    const postgres = await run('PostgreSQL', {
      DATABASE_URL: database.url,
      DATABASE_POOL_MAX: '20',
    });
    const pglite = await run('PGlite', {});
    return [postgres, pglite];
  } finally {
    await database.drop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`)
  console.log(JSON.stringify(await benchWithdraw(), null, 2));
