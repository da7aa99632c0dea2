/**
 * Builds the app into dist/, which the server serves on its own port. Every screen, the charts
 * and every bundled locale load lazily, so the first screen carries only the shell
 * (bench/web-size.mjs keeps it within budget); the route table reaches the bundle without its
 * schemas (route-table-plugin.ts). `npm run dev -w @bourse/web` proxies the API to a
 * server on port 8080.
 */
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { routeTablePlugin } from './route-table-plugin';

export default defineConfig({
  plugins: [routeTablePlugin(), react()],
  base: './',
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
});
