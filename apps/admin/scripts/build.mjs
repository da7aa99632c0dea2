// Builds the console into dist/ and writes a Brotli and a gzip copy of every text file beside it,
// which the server sends to browsers that accept them (no compression work per request).
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { build as viteBuild } from 'vite';

export const adminDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const distDir = path.join(adminDir, 'dist');
const COMPRESSIBLE = /\.(js|css|html|svg|json)$/;

function* files(dir) {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) yield* files(full);
    else yield full;
  }
}

export async function build() {
  // Libraries pick their production code from NODE_ENV: a build started from a test run
  // (NODE_ENV=test) would otherwise ship React's development build.
  process.env.NODE_ENV = 'production';
  await viteBuild({ root: adminDir, mode: 'production', logLevel: 'warn' });
  for (const file of files(distDir)) {
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

if (import.meta.url === `file://${process.argv[1]}`) await build();
