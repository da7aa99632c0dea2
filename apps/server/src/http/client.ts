/**
 * Who is calling, as sessions and the audit log store it: the client address and user agent.
 * Both come from headers no schema checks (`X-Forwarded-For` behind a trusted proxy, `User-Agent`),
 * so they are made safe to store here: an address must be one (the connection's own otherwise),
 * and the user agent loses control characters and unpaired surrogates (which PostgreSQL refuses or
 * mangles) and is cut to 512 characters. Node's HTTP parser already refuses most control
 * characters in headers; this holds whatever sits in front.
 */
import { isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';
import { withoutForbiddenCharacters } from '@bourse/shared';

const USER_AGENT_MAX = 512;

/** The client's address: the one the proxy hops give, when it is an address; else the socket's. */
export function clientIp(request: FastifyRequest): string {
  if (isIP(request.ip)) return request.ip;
  return request.socket.remoteAddress ?? 'unknown';
}

/** The user agent as stored: no control characters or unpaired surrogates, 512 characters. */
export function clientUserAgent(request: FastifyRequest): string {
  const header = request.headers['user-agent'];
  if (typeof header !== 'string') return '';
  // Cut first: a pair split at the cut leaves an unpaired half, which goes with the rest.
  return withoutForbiddenCharacters(header.slice(0, USER_AGENT_MAX));
}
