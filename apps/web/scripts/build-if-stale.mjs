// `npm start` runs this first: it builds the app when there is no build yet or when any source
// of it (the app, the shared package, the locales, the build config) changed since the last one.
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { build, webDir } from './build.mjs';

const sources = [
  path.join(webDir, 'src'),
  path.join(webDir, 'public'),
  path.join(webDir, 'index.html'),
  path.join(webDir, 'vite.config.ts'),
  path.join(webDir, 'package.json'),
  path.join(webDir, '../../packages/shared/src'),
  path.join(webDir, '../../packages/shared/locales'),
];

function newest(target) {
  const stat = statSync(target, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(target).reduce(
    (max, name) => Math.max(max, newest(path.join(target, name))),
    stat.mtimeMs,
  );
}

const built =
  statSync(path.join(webDir, 'dist/index.html'), { throwIfNoEntry: false })?.mtimeMs ?? 0;
if (built === 0 || sources.some((source) => newest(source) > built)) {
  console.log(
    built === 0
      ? 'Building the web app…'
      : 'The web app changed since its last build; building it…',
  );
  await build();
}
