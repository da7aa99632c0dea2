/**
 * Builds the app into dist/, which the server serves on its own port. Every screen, the charts
 * and every bundled locale load lazily, so the first screen carries only the shell
 * (bench/web-size.mjs keeps it within budget); the route table reaches the bundle without its
 * schemas (route-table-plugin.ts). `npm run dev -w @bourse/web` proxies the API to a
 * server on port 8080.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { routeTablePlugin } from './route-table-plugin';

/**
 * react-router's package points every bundler condition at its development build (warnings and
 * checks, about 6 KB gzip more); the app takes the production build its package ships beside it.
 */
const reactRouterProduction = path.join(
  path.dirname(createRequire(import.meta.url).resolve('react-router/package.json')),
  'dist/production/index.mjs',
);

export default defineConfig(({ mode }) => ({
  plugins: [routeTablePlugin(), react()],
  base: './',
  resolve: {
    alias: [
      ...(mode === 'production'
        ? [{ find: /^react-router$/, replacement: reactRouterProduction }]
        : []),
    ],
  },
  // Messages are plain data: one JSON.parse of a string, not a variable per key.
  json: { namedExports: false, stringify: true },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    reportCompressedSize: false,
    // Read by bench/web-size.mjs to add up what each route loads.
    manifest: true,
  },
  server: {
    proxy: {
      '/api': 'http://127.0.0.1:8080',
      '/healthz': 'http://127.0.0.1:8080',
    },
  },
}));
