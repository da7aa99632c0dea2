// Building a browser app of this repository (apps/web, apps/admin): `buildApp` builds it into
// dist/ and writes a Brotli and a gzip copy of every text file beside it, which the server sends
// to browsers that accept them (no compression work per request); `buildIfStale` builds it only
// when there is no build yet or when any source of it changed since the last one (`npm start` and
// the browser tests run it first). Each app's scripts/build.mjs and build-if-stale.mjs call these.
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { build as viteBuild } from 'vite';

const COMPRESSIBLE = /\.(js|css|html|svg|json)$/;
const toolsDir = path.dirname(fileURLToPath(import.meta.url));
const sharedDir = path.join(toolsDir, '../packages/shared');

function* files(dir) {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) yield* files(full);
    else yield full;
  }
}

/** Builds the app whose folder (index.html, vite.config.ts) is `appDir`. */
export async function buildApp(appDir) {
  // Libraries pick their production code from NODE_ENV: a build started from a test run
  // (NODE_ENV=test) would otherwise ship React's development build.
  process.env.NODE_ENV = 'production';
  await viteBuild({ root: appDir, mode: 'production', logLevel: 'warn' });
  for (const file of files(path.join(appDir, 'dist'))) {
    if (!COMPRESSIBLE.test(file) || file.includes(`${path.sep}.vite${path.sep}`)) continue;
    const content = readFileSync(file);
    if (content.length < 512) continue;
    writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
    writeFileSync(
      `${file}.br`,
      brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
    );
  }
}

/** The last change of a file, or of anything in a folder. */
function newest(target) {
  const stat = statSync(target, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(target).reduce(
    (max, name) => Math.max(max, newest(path.join(target, name))),
    stat.mtimeMs,
  );
}

/**
 * The sources of an app's build: its code, public files, page and package, the build config at
 * its root (vite.config.ts and its plugins), the shared package with its locales, and these tools.
 */
function sourcesOf(appDir) {
  const config = readdirSync(appDir).filter((name) => /\.[cm]?[jt]s$/.test(name));
  return [
    ...['src', 'public', 'index.html', 'package.json', ...config].map((name) =>
      path.join(appDir, name),
    ),
    path.join(sharedDir, 'src'),
    path.join(sharedDir, 'locales'),
    toolsDir,
  ];
}

const LOCK_STALE_MS = 10 * 60_000;

/**
 * Runs `work` holding the app's build lock (a folder made atomically), so two processes started at
 * once (two test runs, `npm start` beside a test run) never write one dist/ together: the second
 * waits, then finds the build fresh. A lock older than ten minutes was left by a killed build.
 */
async function withBuildLock(appDir, work) {
  const lock = path.join(appDir, '.build-lock');
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      const age = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > LOCK_STALE_MS) rmSync(lock, { recursive: true, force: true });
      else await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  try {
    return await work();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

function builtAt(appDir) {
  return statSync(path.join(appDir, 'dist/index.html'), { throwIfNoEntry: false })?.mtimeMs ?? 0;
}

/**
 * Builds the app in `appDir` with `build` when it has no build yet (saying `messages.first`) or
 * when a source changed since its last build (saying `messages.changed`).
 */
export async function buildIfStale(appDir, build, messages) {
  await withBuildLock(appDir, async () => {
    const built = builtAt(appDir);
    if (built !== 0 && !sourcesOf(appDir).some((source) => newest(source) > built)) return;
    console.log(built === 0 ? messages.first : messages.changed);
    await build();
  });
}
