/**
 * Security headers of every API answer. They are fixed strings, so one synchronous hook sets them
 * all at once; @fastify/helmet, which runs a middleware per header, cost a third of the
 * throughput of the launch calls (docs/adr/0004-security-headers-without-helmet.md). The web app's
 * HTML adds its Content-Security-Policy where it is served.
 */
import type { FastifyInstance } from 'fastify';

export const SECURITY_HEADERS = {
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'SAMEORIGIN',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
} as const;

export function registerSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(SECURITY_HEADERS);
    done();
  });
}
