// Sign-ins per second through HTTP at 50 connections, on PostgreSQL and on PGlite: each one
// reserves an attempt for the account in the database before its password is checked (ADR 0006),
// verifies the password (argon2id), settles the attempt and opens a session, as
// `userInfo/login` does for users. 50 users take turns, always with the right password.
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { cannon, createDatabase, postJson, startServer, summary } from './lib.mjs';

const USERS = 50;
const PASSWORD = 'Heron4Lantern';

async function run(label, env) {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'bourse-bench-login-'));
  const port = 4000 + Math.floor(Math.random() * 900);
  const server = await startServer({ port, env, dataDir });
  try {
    const accounts = [];
    for (let i = 0; i < USERS; i++) {
      const userAccount = `login${i}.${Date.now()}@example.com`;
      await postJson(`${server.url}/api/userInfo/reg`, {
        regType: 1,
        userAccount,
        userPwd: PASSWORD,
      });
      accounts.push(userAccount);
    }
    let sequence = 0;
    const requests = [
      {
        method: 'POST',
        path: '/api/userInfo/login',
        setupRequest(request) {
          sequence += 1;
          return {
            ...request,
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({
              userAccount: accounts[sequence % accounts.length],
              userPwd: PASSWORD,
            }),
          };
        },
      },
    ];
    const result = summary(
      await cannon({ url: server.url, requests, connections: 50, duration: 10 }),
    );
    return { name: `sign-ins on ${label}, 50 connections`, ...result, pass: result.non2xx === 0 };
  } finally {
    await server.stop();
  }
}

export async function benchLogin() {
  const database = await createDatabase('bourse_bench_login');
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
  console.log(JSON.stringify(await benchLogin(), null, 2));
