// Size budget of the web app: the JavaScript the first screen loads (gzip) must stay within
// 180 KB. Reads the Vite manifest of a fresh build and adds up, per route, the chunks it loads:
// the entry with its static imports, the route's own lazy chunk with its imports, and (for the
// first screen) the English locale, which a first visit loads before rendering.
// `node bench/web-size.mjs` prints the table and exits 1 over budget; `npm run bench` runs it too.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { root } from './lib.mjs';
import { build } from '../apps/web/scripts/build.mjs';

export const FIRST_SCREEN_BUDGET_KB = 180;
const webDir = path.join(root, 'apps/web');
const distDir = path.join(webDir, 'dist');

function gzipKb(file) {
  return gzipSync(readFileSync(path.join(distDir, file)), { level: 9 }).length / 1024;
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
    .reduce((sum, file) => sum + gzipKb(file), 0);
}

export async function benchWebSize({ rebuild = true } = {}) {
  if (rebuild) await build();
  const manifest = JSON.parse(readFileSync(path.join(distDir, '.vite/manifest.json'), 'utf8'));
  const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry);
  const entry = closure(manifest, entryKey);
  const english = Object.keys(manifest).find((key) => key.endsWith('locales/en.json'));
  const routes = {};
  for (const key of manifest[entryKey].dynamicImports ?? []) {
    const match = /features\/(.+)\.tsx$/.exec(key);
    if (!match) continue;
    const files = closure(manifest, key, new Set(entry));
    for (const file of entry) files.delete(file);
    routes[match[1]] = Number(sizeOf(files).toFixed(1));
  }
  const firstScreen = new Set(entry);
  closure(
    manifest,
    Object.keys(manifest).find((key) => key.endsWith('features/home/home-page.tsx')),
    firstScreen,
  );
  if (english) closure(manifest, english, firstScreen);
  const firstScreenKb = Number(sizeOf(firstScreen).toFixed(1));
  const allJsKb = Number(
    sizeOf(new Set(Object.values(manifest).map((chunk) => chunk.file))).toFixed(1),
  );
  return {
    name: `web app JavaScript, gzip (first screen = entry + home + English locale)`,
    entryKb: Number(sizeOf(entry).toFixed(1)),
    firstScreenKb,
    routeExtraKb: routes,
    allJsKb,
    target: `first screen <= ${FIRST_SCREEN_BUDGET_KB} KB`,
    pass: firstScreenKb <= FIRST_SCREEN_BUDGET_KB,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await benchWebSize();
  console.log(JSON.stringify(result, null, 2));
  process.exit(result.pass ? 0 : 1);
}
