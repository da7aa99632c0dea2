// `npm start` and the console's browser tests run this first: it builds the console when there is
// no build yet or when any source of it (the console, the shared package, the locales, the build
// config) changed since the last one.
import { buildIfStale } from '../../../tools/build-app.mjs';
import { adminDir, build } from './build.mjs';

await buildIfStale(adminDir, build, {
  first: 'Building the operator console…',
  changed: 'The operator console changed since its last build; building it…',
});
