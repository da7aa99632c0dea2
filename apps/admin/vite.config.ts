/**
 * Builds the operator console into dist/, which the server serves at /admin/ on its own port
 * (apps/server/src/http/web-app.ts). Every page loads lazily, so the sign-in screen carries only
 * the shell (bench/admin-size.mjs keeps the first screen within its budget); the route table
 * reaches the bundle without its schemas (route-table-plugin.ts). `npm run dev -w
 * @bourse/admin` serves it with hot reload, proxying the operator API to a server on port 8080.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { routeTablePlugin } from './route-table-plugin';
import { serverMessagesPlugin } from './server-messages-plugin';

/** react-router's production build (its package points bundlers at the development one). */
const reactRouterProduction = path.join(
  path.dirname(createRequire(import.meta.url).resolve('react-router/package.json')),
  'dist/production/index.mjs',
);

export default defineConfig(({ mode }) => ({
  plugins: [routeTablePlugin(), serverMessagesPlugin(), react()],
  // Absolute: /admin and /admin/ both load the same assets.
  base: '/admin/',
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
    chunkSizeWarningLimit: 1024,
    // Read by bench/admin-size.mjs to add up what each page loads.
    manifest: true,
  },
  server: {
    proxy: {
      '/admin-api': 'http://127.0.0.1:8080',
    },
  },
}));
