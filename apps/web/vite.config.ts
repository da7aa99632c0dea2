/**
 * Builds the app into dist/, which the server serves on its own port. Every screen, the charts
 * and every bundled locale load lazily, so the first screen carries only the shell
 * (bench/web-size.mjs keeps it within budget); the route table reaches the bundle without its
 * schemas (route-table-plugin.ts). `npm run dev -w @bourse/web` proxies the API to a
 * server on port 8080. The stylesheets do not block the first paint (styles-after-paint-plugin.ts).
 * What both browser apps' builds share is in tools/vite-app.ts.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { appConfig } from '../../tools/vite-app';
import { firstScreenGroup, PROBE_ENV } from './first-screen-chunk-plugin';
import { routeTablePlugin } from './route-table-plugin';
import { stylesAfterPaintPlugin } from './styles-after-paint-plugin';

const config = appConfig({
  from: import.meta.url,
  plugins: () => [routeTablePlugin(), react(), stylesAfterPaintPlugin()],
  base: './',
  proxied: ['/api', '/healthz'],
});

export default defineConfig(async (env) => {
  const resolved = config(env);
  if (env.command !== 'build' || process.env[PROBE_ENV]) return resolved;
  // The first screen's code in one chunk (first-screen-chunk-plugin.ts).
  const group = await firstScreenGroup(path.dirname(fileURLToPath(import.meta.url)));
  return {
    ...resolved,
    build: {
      ...resolved.build,
      rolldownOptions: { output: { codeSplitting: { groups: [group] } } },
    },
  };
});
