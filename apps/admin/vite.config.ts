/**
 * Builds the operator console into dist/, which the server serves at /admin/ on its own port
 * (apps/server/src/http/web-app.ts). Every page loads lazily, so the sign-in screen carries only
 * the shell (bench/admin-size.mjs keeps the first screen within its budget); the route table
 * reaches the bundle without its schemas, with who may make each call (the menu and the page
 * gates read it: tools/route-table.ts). `npm run dev -w @bourse/admin` serves it with hot reload,
 * proxying the operator API to a server on port 8080. What both browser apps' builds share is in
 * tools/vite-app.ts.
 */
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { routeTablePlugin } from '../../tools/route-table';
import { appConfig } from '../../tools/vite-app';
import { serverMessagesPlugin } from './server-messages-plugin';

export default defineConfig(
  appConfig({
    from: import.meta.url,
    plugins: () => [routeTablePlugin({ access: true }), serverMessagesPlugin(), react()],
    // Absolute: /admin and /admin/ both load the same assets.
    base: '/admin/',
    proxied: ['/admin-api'],
    build: { chunkSizeWarningLimit: 1024 },
  }),
);
