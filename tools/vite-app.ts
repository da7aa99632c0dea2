/**
 * What the browser apps' Vite configs share (apps/web and apps/admin vite.config.ts): react-router's
 * production build, messages as plain data, the build into dist/ with a manifest (the size benches
 * read it to add up what each screen loads), and in `npm run dev` the API proxied to a server on
 * port 8080. Each app adds its plugins, its base and what its build needs beyond these.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import type { BuildEnvironmentOptions, PluginOption, UserConfigFnObject } from 'vite';

export interface AppConfig {
  /** The config file's `import.meta.url`: the app's packages resolve from there. */
  from: string;
  plugins(): PluginOption[];
  base: string;
  /** The path prefixes `npm run dev` sends to the server. */
  proxied: readonly string[];
  build?: BuildEnvironmentOptions;
}

export function appConfig({ from, plugins, base, proxied, build }: AppConfig): UserConfigFnObject {
  /**
   * react-router's package points every bundler condition at its development build (warnings and
   * checks, about 6 KB gzip more); the apps take the production build its package ships beside it.
   */
  const reactRouterProduction = path.join(
    path.dirname(createRequire(from).resolve('react-router/package.json')),
    'dist/production/index.mjs',
  );
  return ({ mode }) => ({
    plugins: plugins(),
    base,
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
      // Read by bench/web-size.mjs and bench/admin-size.mjs to add up what each screen loads.
      manifest: true,
      ...build,
    },
    server: {
      proxy: Object.fromEntries(proxied.map((prefix) => [prefix, 'http://127.0.0.1:8080'])),
    },
  });
}
