/**
 * Serves the built web app (apps/web/dist) on the API's port: index.html never stored, hashed
 * assets cached for a year, with the precompressed .br/.gz copies the build writes. The HTML
 * carries the Content-Security-Policy: scripts only from here, API calls only to here and to the
 * configured API lines.
 */
import { existsSync } from 'node:fs';
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

/** Registers the app's files; false when there is no build to serve (the API still runs). */
export async function registerWebApp(
  app: FastifyInstance,
  options: { webDir: string; apiLineUrls: readonly string[] },
): Promise<boolean> {
  if (!existsSync(path.join(options.webDir, 'index.html'))) return false;
  const csp = contentSecurityPolicy(options.apiLineUrls);
  await app.register(fastifyStatic, {
    root: options.webDir,
    prefix: '/',
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
        response.setHeader('content-security-policy', csp);
      } else if (served.includes(`${path.sep}assets${path.sep}`)) {
        response.setHeader('cache-control', 'public, max-age=31536000, immutable');
      } else {
        response.setHeader('cache-control', 'public, max-age=3600');
      }
    },
  });
  return true;
}
