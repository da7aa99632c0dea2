// `npm start` and the console's browser tests run this first: it builds the console when there is
// no build yet or when any source of it (the console, the shared package, the locales, the build
// config) changed since the last one.
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { adminDir, build } from './build.mjs';

const sources = [
  path.join(adminDir, 'src'),
  path.join(adminDir, 'public'),
  path.join(adminDir, 'index.html'),
  path.join(adminDir, 'vite.config.ts'),
  path.join(adminDir, 'server-messages-plugin.ts'),
  path.join(adminDir, 'route-table-plugin.ts'),
  path.join(adminDir, 'package.json'),
  path.join(adminDir, '../../packages/shared/src'),
  path.join(adminDir, '../../packages/shared/locales'),
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
  statSync(path.join(adminDir, 'dist/index.html'), { throwIfNoEntry: false })?.mtimeMs ?? 0;
if (built === 0 || sources.some((source) => newest(source) > built)) {
  console.log(
    built === 0
      ? 'Building the operator console…'
      : 'The operator console changed since its last build; building it…',
  );
  await build();
}
