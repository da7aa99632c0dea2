// An authenticated read (userInfo/getUserInfo) on PostgreSQL: requests per second and p99 at 50
// connections. Every request resolves its session in the database (no cache), as in production.
import { cannon, createDatabase, startServer, summary } from './lib.mjs';

export async function benchAuthRead() {
  const database = await createDatabase('bourse_bench_auth');
  const server = await startServer({
    port: 4002,
    env: { DATABASE_URL: database.url, DATABASE_POOL_MAX: '20' },
  });
  try {
    const registration = await fetch(`${server.url}/api/userInfo/reg`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ regType: 1, userAccount: 'bench@example.com', userPwd: 'Bench12345' }),
    }).then((response) => response.json());
    const token = registration.data.token;
    const url = `${server.url}/api/userInfo/getUserInfo`;
    const headers = { authorization: `Bearer ${token}` };
    await cannon({ url, headers, duration: 3 });
    const result = summary(await cannon({ url, headers, connections: 50 }));
    return {
      name: 'getUserInfo on PostgreSQL, 50 connections',
      ...result,
      pass: result.non2xx === 0,
    };
  } finally {
    await server.stop();
    await database.drop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`)
  console.log(JSON.stringify(await benchAuthRead(), null, 2));
