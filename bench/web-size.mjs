// Size budget of the web app: the JavaScript the first screen loads must stay within 160 KB gzip.
// Measured as the browser loads it: a fresh production build served by the real server, `/` opened
// in Debian's Chromium at 390×844 (a first visit: empty storage), and once the network is idle
// every script response is added up, each body gzipped at level 9 as the build's .gz copies are
// (so the figure does not depend on which encoding the browser chose). Beside it, per route, the
// chunks the Vite manifest says each screen adds to the entry (the figure the budget used before).
// `node --import tsx bench/web-size.mjs` prints both and exits 1 over budget; `npm run bench` runs it too.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { root, startServer } from './lib.mjs';
import { build } from '../apps/web/scripts/build.mjs';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../apps/web/e2e/chromium.ts';

export const FIRST_SCREEN_BUDGET_KB = 160;
const webDir = path.join(root, 'apps/web');
const distDir = path.join(webDir, 'dist');
const kb = (bytes) => Number((bytes / 1024).toFixed(1));

function gzipBytes(file) {
  return gzipSync(readFileSync(path.join(distDir, file)), { level: 9 }).length;
}

/** Every JS file a manifest key loads statically, itself included. */
function closure(manifest, key, seen = new Set()) {
  const chunk = manifest[key];
  if (!chunk || seen.has(chunk.file)) return seen;
  seen.add(chunk.file);
  for (const imported of chunk.imports ?? []) closure(manifest, imported, seen);
  return seen;
}

function sizeOf(files) {
  return [...files]
    .filter((file) => file.endsWith('.js'))
    .reduce((sum, file) => sum + gzipBytes(file), 0);
}

/** What the manifest says: the entry's static imports, and what each screen adds to them. */
function manifestFigures() {
  const manifest = JSON.parse(readFileSync(path.join(distDir, '.vite/manifest.json'), 'utf8'));
  const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry);
  const entry = closure(manifest, entryKey);
  const routes = {};
  for (const [key, chunk] of Object.entries(manifest)) {
    const match = /features\/(.+-page)\.tsx$/.exec(key);
    if (!match || !chunk.isDynamicEntry) continue;
    const files = closure(manifest, key, new Set(entry));
    for (const file of entry) files.delete(file);
    routes[match[1]] = kb(sizeOf(files));
  }
  const allJs = sizeOf(new Set(Object.values(manifest).map((chunk) => chunk.file)));
  return { entryKb: kb(sizeOf(entry)), routeExtraKb: routes, allJsKb: kb(allJs) };
}

/** Opens `/` like a first visit and adds up the gzip size of every script that arrived. */
async function loadedScripts(url) {
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
  });
  try {
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      deviceScaleFactor: 3,
      isMobile: true,
      hasTouch: true,
    });
    const page = await context.newPage();
    const pending = [];
    page.on('response', (response) => {
      if (response.request().resourceType() !== 'script') return;
      pending.push(
        response.body().then((body) => ({
          file: new URL(response.url()).pathname.replace(/^\//, ''),
          gzip: gzipSync(body, { level: 9 }).length,
        })),
      );
    });
    await page.goto(`${url}/`, { waitUntil: 'networkidle' });
    // Idle is idle for half a second; a launch step that starts later still counts.
    await page.waitForLoadState('networkidle');
    const scripts = (await Promise.all(pending)).sort((a, b) => b.gzip - a.gzip);
    return {
      totalKb: kb(scripts.reduce((sum, script) => sum + script.gzip, 0)),
      scripts: Object.fromEntries(scripts.map((script) => [script.file, kb(script.gzip)])),
    };
  } finally {
    await browser.close();
  }
}

export async function benchWebSize({ rebuild = true, port = 18092 } = {}) {
  if (rebuild) await build();
  // As the browser tests run it: the simulated feed on, so the home screen has its products.
  const server = await startServer({
    port,
    env: { MARKET_FEED: 'simulated', API_LINES: '', DATABASE_URL: '' },
  });
  let loaded;
  try {
    loaded = await loadedScripts(server.url);
  } finally {
    await server.stop();
  }
  return {
    name: 'web app JavaScript, gzip: the first screen as Chromium loads it (/ at 390×844, network idle)',
    firstScreenKb: loaded.totalKb,
    firstScreenScripts: loaded.scripts,
    manifest: manifestFigures(),
    target: `first screen <= ${FIRST_SCREEN_BUDGET_KB} KB`,
    pass: loaded.totalKb <= FIRST_SCREEN_BUDGET_KB,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.chdir(root);
  const result = await benchWebSize({ rebuild: !process.argv.includes('--no-build') });
  console.log(JSON.stringify(result, null, 2));
  process.exit(result.pass ? 0 : 1);
}
