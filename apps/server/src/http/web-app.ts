/**
 * Serves the built web app (apps/web/dist) at / and the operator console (apps/admin/dist) at
 * /admin/ on the API's port: index.html never stored, hashed assets cached for a year, with the
 * precompressed .br/.gz copies the builds write. Each HTML carries the Content-Security-Policy:
 * scripts only from here, API calls only to here and to the configured API lines.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

export function contentSecurityPolicy(apiLineUrls: readonly string[]): string {
  const origins = [...new Set(apiLineUrls.map((url) => new URL(url).origin))];
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https:",
    "font-src 'self' data:",
    `connect-src 'self' ${origins.join(' ')}`.trim(),
    "frame-ancestors 'self'",
    "base-uri 'self'",
    "form-action 'self'",
    "object-src 'none'",
  ].join('; ');
}

/** The console's path: its build names its assets under it (apps/admin/vite.config.ts `base`). */
export const CONSOLE_PREFIX = '/admin/';

/** One build's files under a path prefix, with the headers above. */
async function registerBuild(
  app: FastifyInstance,
  options: { root: string; prefix: string; csp: string; decorateReply: boolean },
): Promise<void> {
  await app.register(fastifyStatic, {
    root: options.root,
    prefix: options.prefix,
    // @fastify/static decorates the reply once per server: the second build goes without.
    decorateReply: options.decorateReply,
    wildcard: true,
    index: ['index.html'],
    preCompressed: true,
    // The headers below decide caching per file kind.
    cacheControl: false,
    // Manifests of the build stay private.
    allowedPath: (pathName) => !pathName.startsWith('/.vite'),
    setHeaders(response, filePath) {
      // A precompressed copy (index.html.br) gets the headers of the file it is a copy of: with
      // `Accept-Encoding: br` the HTML once went out without its policy and cached for an hour.
      const served = filePath.replace(/\.(br|gz)$/, '');
      if (served.endsWith('.html')) {
        // The page names the hashed scripts of the current build: a stale copy would load old
        // code, so it is never stored, only fetched.
        response.setHeader('cache-control', 'no-store');
        response.setHeader('content-security-policy', options.csp);
      } else if (served.includes(`${path.sep}assets${path.sep}`)) {
        response.setHeader('cache-control', 'public, max-age=31536000, immutable');
      } else {
        response.setHeader('cache-control', 'public, max-age=3600');
      }
    },
  });
}

/**
 * Registers the builds there are: the app at / and the console at /admin/ (each skipped, and
 * false in the answer, when it has not been built; the API still runs).
 */
export async function registerWebApp(
  app: FastifyInstance,
  options: { webDir: string; adminDir: string; apiLineUrls: readonly string[] },
): Promise<{ web: boolean; admin: boolean }> {
  const csp = contentSecurityPolicy(options.apiLineUrls);
  const served = { web: false, admin: false };
  if (existsSync(path.join(options.adminDir, 'index.html'))) {
    // The console calls only this server: no API line among its sources.
    const consoleCsp = contentSecurityPolicy([]);
    await registerBuild(app, {
      root: options.adminDir,
      prefix: CONSOLE_PREFIX,
      csp: consoleCsp,
      decorateReply: false,
    });
    // The console's address itself: routes ignore a trailing slash, so `/admin/` reaches this
    // route rather than the files' wildcard. Read at each request: a new build names new scripts.
    const consolePage = path.join(options.adminDir, 'index.html');
    app.get(CONSOLE_PREFIX.slice(0, -1), async (_request, reply) =>
      reply
        .header('cache-control', 'no-store')
        .header('content-security-policy', consoleCsp)
        .type('text/html; charset=utf-8')
        .send(await readFile(consolePage)),
    );
    served.admin = true;
  }
  if (existsSync(path.join(options.webDir, 'index.html'))) {
    await registerBuild(app, { root: options.webDir, prefix: '/', csp, decorateReply: true });
    served.web = true;
  }
  return served;
}
