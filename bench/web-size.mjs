// Size budget of the web app: the JavaScript the first screen loads must stay within 160 KB gzip.
// Measured as the browser loads it: a fresh production build served by the real server, `/` opened
// in Debian's Chromium at 390×844 (a first visit: empty storage), and once the network is idle
// every script response is added up, each body gzipped at level 9 as the build's .gz copies are
// (so the figure does not depend on which encoding the browser chose). Beside it, per route, the
// chunks the Vite manifest says each screen adds to the entry (the figure the budget used before).
// `node --import tsx bench/web-size.mjs` prints both and exits 1 over budget; `npm run bench` runs it too.
import path from 'node:path';
import { loadedScripts, manifestFigures, root, startServer, withChromium } from './lib.mjs';
import { build } from '../apps/web/scripts/build.mjs';

export const FIRST_SCREEN_BUDGET_KB = 160;
const distDir = path.join(root, 'apps/web/dist');

/** What the manifest says: the entry's static imports, and what each screen adds to them. */
function routeFigures() {
  const { entryKb, screenExtraKb, allJsKb } = manifestFigures(distDir, /features\/(.+-page)\.tsx$/);
  return { entryKb, routeExtraKb: screenExtraKb, allJsKb };
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
    // `/` like a first visit: empty storage, a phone.
    loaded = await withChromium((browser) =>
      loadedScripts(browser, `${server.url}/`, {
        contextOptions: {
          viewport: { width: 390, height: 844 },
          deviceScaleFactor: 3,
          isMobile: true,
          hasTouch: true,
        },
      }),
    );
  } finally {
    await server.stop();
  }
  return {
    name: 'web app JavaScript, gzip: the first screen as Chromium loads it (/ at 390×844, network idle)',
    firstScreenKb: loaded.totalKb,
    firstScreenScripts: loaded.scripts,
    manifest: routeFigures(),
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
