/* global document, requestAnimationFrame -- the frame counter runs in the page. */
// Target: the quotes page keeps >= 55 frames per second while 1,000 rows receive live updates.
// The server runs with 1,000 extra crypto products (every one ticking once a second, so each
// conflated update carries a thousand prices); Debian's Chromium at a phone viewport loads all
// 1,000 rows into the list, then scrolls it up and down for 10 s while the updates arrive, and the
// page counts the frames it painted (requestAnimationFrame) and its long tasks.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../apps/web/e2e/chromium.ts';
import { build } from '../apps/web/scripts/build.mjs';
import { openPglite } from '../apps/server/src/db/database.ts';
import { prepareDatabase } from '../apps/server/src/prepare.ts';
import { root, startServer } from './lib.mjs';

const EXTRA = Number(process.env.BENCH_PRODUCTS ?? 1000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const LANGS = [
  'zh',
  'en',
  'tc',
  'de',
  'es',
  'fr',
  'idn',
  'jp',
  'ko',
  'my',
  'th',
  'vi',
  'pt',
  'rus',
  'blr',
  'ida',
  'sa',
  'ar',
  'it',
];

/** 1,000 synthetic crypto pairs, each with a day candle so no history is generated for them. */
async function seed(dataDir) {
  const db = await openPglite(path.join(dataDir, 'pglite'));
  await prepareDatabase(db);
  const products = Array.from({ length: EXTRA }, (_, index) => {
    const code = `S${String(index).padStart(4, '0')}USDT`;
    return {
      code,
      names: Object.fromEntries(LANGS.map((lang) => [lang, `Synthetic ${index}`])),
      price: `${10 + (index % 90)}.${String(index % 100).padStart(2, '0')}`,
      sort: 1000 + index,
    };
  });
  await db.query(
    `INSERT INTO product (product_type, product_code, product_name_lang, position_types, sort,
       standard, price_scale, leverages, session, source_symbol, reference_price, volatility, daily_volume)
     SELECT 2, d.code, d.names, '{0,1,2,3}', d.sort, 1, 2, '{1,5,10}', 'crypto', d.code, d.price, 0.8, 100000
     FROM jsonb_to_recordset($1::jsonb) AS d (code text, names jsonb, price numeric, sort integer)`,
    [JSON.stringify(products)],
  );
  await db.query(
    `INSERT INTO market_candle (product_id, resolution, open_time, open, high, low, close)
     SELECT id, '1d', date_trunc('day', now()) - interval '1 day', reference_price, reference_price,
       reference_price, reference_price FROM product WHERE product_code LIKE 'S%USDT'`,
  );
  await db.close();
}

export async function benchQuotesFps() {
  await build();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'bourse-bench-fps-'));
  await seed(dataDir);
  const server = await startServer({ port: 4005, dataDir, env: { MARKET_FEED: 'simulated' } });
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    await context.addInitScript(() => {
      localStorage.setItem('quotesTab', '2');
      localStorage.setItem('popUpVersion', JSON.stringify('none'));
    });
    const page = await context.newPage();
    await page.goto(`${server.url}/#/pages/tabs/quotes/quotes`);
    const list = page.locator('[data-testid=quote-list]');
    await list.waitFor();
    // Scroll to the end until every row is loaded (pages of 50).
    const total = EXTRA + 24;
    for (let attempt = 0; attempt < 200; attempt++) {
      const height = await list.evaluate((element) => {
        element.scrollTop = element.scrollHeight;
        return element.scrollHeight;
      });
      if (height >= total * 64) break;
      await page.waitForTimeout(150);
    }
    const rows = await list.evaluate((element) => Math.round(element.scrollHeight / 64));
    const result = await page.evaluate(async (seconds) => {
      const element = document.querySelector('[data-testid=quote-list]');
      let frames = 0;
      let longTasks = 0;
      let worstFrameMs = 0;
      new PerformanceObserver((entries) => (longTasks += entries.getEntries().length)).observe({
        type: 'longtask',
        buffered: false,
      });
      const end = performance.now() + seconds * 1000;
      let last = performance.now();
      let direction = 1;
      await new Promise((resolve) => {
        const frame = (now) => {
          frames += 1;
          worstFrameMs = Math.max(worstFrameMs, now - last);
          last = now;
          element.scrollTop += 12 * direction;
          if (
            element.scrollTop <= 0 ||
            element.scrollTop + element.clientHeight >= element.scrollHeight
          )
            direction = -direction;
          if (now < end) requestAnimationFrame(frame);
          else resolve();
        };
        requestAnimationFrame(frame);
      });
      return { fps: frames / seconds, longTasks, worstFrameMs: Math.round(worstFrameMs) };
    }, SECONDS);
    return {
      name: `quotes page, ${rows} live rows (conflated updates every second), scrolling for ${SECONDS} s`,
      framesPerSecond: Math.round(result.fps * 10) / 10,
      longTasks: result.longTasks,
      worstFrameMs: result.worstFrameMs,
      target: '>= 55 fps',
      pass: result.fps >= 55 && rows >= 1000,
    };
  } finally {
    await browser.close();
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.chdir(root);
  console.log(JSON.stringify(await benchQuotesFps(), null, 2));
}
