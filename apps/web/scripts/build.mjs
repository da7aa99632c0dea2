// Builds the app into dist/, with a Brotli and a gzip copy of every text file (tools/build-app.mjs).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../../../tools/build-app.mjs';

export const webDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export const build = () => buildApp(webDir);

if (import.meta.url === `file://${process.argv[1]}`) await build();
