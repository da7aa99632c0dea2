// Runs every benchmark in turn, prints the figures with the machine they ran on, writes them to
// bench/results/latest.json, and exits 1 when a target is missed. `npm run bench`.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { benchAuthRead } from './auth-read.mjs';
import { benchLaunch } from './launch.mjs';
import { benchLedger } from './ledger.mjs';
import { benchLighthouse } from './lighthouse.mjs';
import { benchWebSize } from './web-size.mjs';
import { benchAdminSize } from './admin-size.mjs';
import { benchProducts } from './products.mjs';
import { benchQuotesFps } from './quotes-fps.mjs';
import { benchWsFanout } from './ws-fanout.mjs';
import { benchLogin } from './login.mjs';
import { benchWithdraw } from './withdraw.mjs';
import { benchFastSettle } from './fast-settle.mjs';
import { benchMarketOrders } from './market-orders.mjs';
import { benchBinanceOrders } from './binance-orders.mjs';
import { benchTriggers } from './triggers.mjs';
import { benchEarnAccrual } from './earn-accrual.mjs';
import { benchCopyFanout } from './copy-fanout.mjs';
import { benchRealtimeLatency } from './realtime-latency.mjs';
import { machine, root } from './lib.mjs';

const results = { date: new Date().toISOString(), machine: machine(), benchmarks: [] };
for (const bench of [
  benchWebSize,
  benchAdminSize,
  benchLighthouse,
  benchQuotesFps,
  benchLaunch,
  benchAuthRead,
  benchProducts,
  benchWsFanout,
  benchLedger,
  benchLogin,
  benchWithdraw,
  benchFastSettle,
  benchMarketOrders,
  benchBinanceOrders,
  benchRealtimeLatency,
  benchTriggers,
  benchEarnAccrual,
  benchCopyFanout,
]) {
  // A benchmark may measure more than one figure (withdrawals on PostgreSQL and on PGlite).
  for (const result of [await bench()].flat()) {
    results.benchmarks.push(result);
    console.log(JSON.stringify(result, null, 2));
  }
}
await mkdir(path.join(root, 'bench/results'), { recursive: true });
await writeFile(
  path.join(root, 'bench/results/latest.json'),
  `${JSON.stringify(results, null, 2)}\n`,
);
const failed = results.benchmarks.filter((result) => result.pass === false);
console.log(
  failed.length === 0
    ? 'All targets met.'
    : `Missed: ${failed.map((result) => result.name).join('; ')}`,
);
process.exit(failed.length === 0 ? 0 : 1);
