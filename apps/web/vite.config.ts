/**
 * Builds the app into dist/, which the server serves on its own port. Every screen, the charts
 * and every bundled locale load lazily, so the first screen carries only the shell
 * (bench/web-size.mjs keeps it within budget); the route table reaches the bundle without its
 * schemas (route-table-plugin.ts). `npm run dev -w @bourse/web` proxies the API to a
 * server on port 8080. The stylesheets do not block the first paint (styles-after-paint-plugin.ts).
 * What both browser apps' builds share is in tools/vite-app.ts.
 */
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { appConfig } from '../../tools/vite-app';
import { routeTablePlugin } from './route-table-plugin';
import { stylesAfterPaintPlugin } from './styles-after-paint-plugin';

export default defineConfig(
  appConfig({
    from: import.meta.url,
    plugins: () => [routeTablePlugin(), react(), stylesAfterPaintPlugin()],
    base: './',
    proxied: ['/api', '/healthz'],
  }),
);
