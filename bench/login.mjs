// Sign-ins per second through HTTP at 50 connections, on PostgreSQL and on PGlite: each one
// reserves an attempt for the account in the database before its password is checked (ADR 0006),
// verifies the password (argon2id), settles the attempt and opens a session, as
// `userInfo/login` does for users. 50 users take turns, always with the right password.
import { cannon, onBothDatabases, postJson, summary, withServer } from './lib.mjs';

const USERS = 50;
const PASSWORD = 'Heron4Lantern';

function run(label, env) {
  return withServer(env, 'bourse-bench-login-', async (server) => {
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
  });
}

export function benchLogin() {
  return onBothDatabases('bourse_bench_login', run);
}

if (import.meta.url === `file://${process.argv[1]}`)
  console.log(JSON.stringify(await benchLogin(), null, 2));
