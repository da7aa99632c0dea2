// A product list call (`cryptocurrencyProduct/list`, 50 rows with live tickerInfo) on the
// embedded database with the simulated feed running: requests per second and p99 at 50
// connections. Figures only.
import { cannon, startServer, summary } from './lib.mjs';

export async function benchProducts() {
  const server = await startServer({ port: 4003, env: { MARKET_FEED: 'simulated' } });
  try {
    const url = `${server.url}/api/cryptocurrencyProduct/list?pageNum=1&pageSize=50`;
    await cannon({ url, duration: 3 });
    const result = summary(await cannon({ url, connections: 50 }));
    return {
      name: 'cryptocurrencyProduct/list (50 rows, live prices), 50 connections',
      ...result,
      pass: result.non2xx === 0 && result.errors === 0,
    };
  } finally {
    await server.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`)
  console.log(JSON.stringify(await benchProducts(), null, 2));
