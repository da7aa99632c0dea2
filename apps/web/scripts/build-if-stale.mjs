// `npm start` runs this first: it builds the app when there is no build yet or when any source
// of it (the app, the shared package, the locales, the build config) changed since the last one.
import { buildIfStale } from '../../../tools/build-app.mjs';
import { build, webDir } from './build.mjs';

await buildIfStale(webDir, build, {
  first: 'Building the web app…',
  changed: 'The web app changed since its last build; building it…',
});
