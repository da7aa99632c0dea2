// Size budget of the operator console: the JavaScript its first screen loads must stay within
// 400 KB gzip (issue 18: a desktop tool, but lean). Measured as the browser loads it: a fresh
// production build served by the real server, /admin/ opened in Debian's Chromium at 1440×900,
// and once the network is idle every script response is added up, each body gzipped at level 9
// as the build's .gz copies are (so the figure does not depend on which encoding the browser
// chose). Two first screens, both held to the budget: a first visit (empty storage: the sign-in
// page) and an operator coming back signed in (an admin: the layout and the deposit queue).
// Beside them, from the Vite manifest, the entry's static imports and what each page adds.
// `node --import tsx bench/admin-size.mjs` prints the figures and exits 1 over budget;
// `npm run bench` runs it too.
import { mkdtemp, readFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { root, startServer } from './lib.mjs';
import { build } from '../apps/admin/scripts/build.mjs';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../apps/web/e2e/chromium.ts';

export const CONSOLE_FIRST_SCREEN_BUDGET_KB = 400;
const distDir = path.join(root, 'apps/admin/dist');
const kb = (bytes) => Number((bytes / 1024).toFixed(1));
const NEW_PASSWORD = 'bench console lantern 2026';

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

/** What the manifest says: the entry's static imports, and what each page adds to them. */
function manifestFigures() {
  const manifest = JSON.parse(readFileSync(path.join(distDir, '.vite/manifest.json'), 'utf8'));
  const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry);
  const entry = closure(manifest, entryKey);
  const pages = {};
  for (const [key, chunk] of Object.entries(manifest)) {
    const match = /pages\/(.+-page)\.tsx$/.exec(key);
    if (!match || !chunk.isDynamicEntry) continue;
    const files = closure(manifest, key, new Set(entry));
    for (const file of entry) files.delete(file);
    pages[match[1]] = kb(sizeOf(files));
  }
  const allJs = sizeOf(new Set(Object.values(manifest).map((chunk) => chunk.file)));
  return { entryKb: kb(sizeOf(entry)), pageExtraKb: pages, allJsKb: kb(allJs) };
}

/** Opens the console as `storage` leaves it and adds up the gzip size of every script. */
async function loadedScripts(browser, url, { storage = [], ready }) {
  const context = await browser.newContext({
    viewport: { width: 1440, height: 900 },
    locale: 'en-US',
    storageState: { cookies: [], origins: [{ origin: url, localStorage: storage }] },
  });
  try {
    const page = await context.newPage();
    const pending = [];
    page.on('response', (response) => {
      if (response.request().resourceType() !== 'script') return;
      pending.push(
        response.body().then((body) => ({
          file: new URL(response.url()).pathname.replace(/^\/admin\//, ''),
          gzip: gzipSync(body, { level: 9 }).length,
        })),
      );
    });
    await page.goto(`${url}/admin/`, { waitUntil: 'networkidle' });
    await page.locator(ready).waitFor();
    // Idle is idle for half a second; a page chunk that starts later still counts.
    await page.waitForLoadState('networkidle');
    const scripts = (await Promise.all(pending)).sort((a, b) => b.gzip - a.gzip);
    return {
      totalKb: kb(scripts.reduce((sum, script) => sum + script.gzip, 0)),
      scripts: Object.fromEntries(scripts.map((script) => [script.file, kb(script.gzip)])),
    };
  } finally {
    await context.close();
  }
}

async function call(url, route, body, token) {
  const response = await fetch(`${url}${route}`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });
  const envelope = await response.json();
  if (envelope.code !== 200) throw new Error(`${route}: ${JSON.stringify(envelope)}`);
  return envelope.data;
}

export async function benchAdminSize({ rebuild = true, port = 18093 } = {}) {
  if (rebuild) await build();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'bourse-bench-console-'));
  const server = await startServer({ port, dataDir, env: { DATABASE_URL: '', ADMIN_DIR: '' } });
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
  });
  let signedOut;
  let signedIn;
  try {
    signedOut = await loadedScripts(browser, server.url, { ready: '[data-testid="sign-in"]' });
    // The first admin, with a password of their own (the first one opens the password step).
    const { operatorsApi } = await import('../packages/shared/src/contract/operators.ts');
    const first = (await readFile(path.join(dataDir, 'admin-login.txt'), 'utf8')).trim();
    const login = { username: 'admin', password: first };
    const { token } = await call(server.url, operatorsApi.signIn.path, login);
    await call(
      server.url,
      operatorsApi.changePassword.path,
      { oldPassword: first, newPassword: NEW_PASSWORD },
      token,
    );
    const again = await call(server.url, operatorsApi.signIn.path, {
      username: 'admin',
      password: NEW_PASSWORD,
    });
    signedIn = await loadedScripts(browser, server.url, {
      storage: [{ name: 'bourse.console.token', value: again.token }],
      ready: '[data-testid="deposits-table"]',
    });
  } finally {
    await browser.close();
    await server.stop();
  }
  const worst = Math.max(signedOut.totalKb, signedIn.totalKb);
  return {
    name: 'operator console JavaScript, gzip: the first screen as Chromium loads it (/admin/ at 1440×900, network idle)',
    signInScreenKb: signedOut.totalKb,
    signedInScreenKb: signedIn.totalKb,
    signInScripts: signedOut.scripts,
    signedInScripts: signedIn.scripts,
    manifest: manifestFigures(),
    target: `each first screen <= ${CONSOLE_FIRST_SCREEN_BUDGET_KB} KB`,
    pass: worst <= CONSOLE_FIRST_SCREEN_BUDGET_KB,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.chdir(root);
  const result = await benchAdminSize({ rebuild: !process.argv.includes('--no-build') });
  console.log(JSON.stringify(result, null, 2));
  process.exit(result.pass ? 0 : 1);
}
