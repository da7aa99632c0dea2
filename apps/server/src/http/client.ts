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

const USER_AGENT_MAX = 512;
// C0 and C1 controls and DEL, and surrogates without their other half.
const UNSTORABLE =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u001f\u007f-\u009f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** The client's address: the one the proxy hops give, when it is an address; else the socket's. */
export function clientIp(request: FastifyRequest): string {
  if (isIP(request.ip)) return request.ip;
  return request.socket.remoteAddress ?? 'unknown';
}

/** The user agent as stored: no control characters or unpaired surrogates, 512 characters. */
export function clientUserAgent(request: FastifyRequest): string {
  const header = request.headers['user-agent'];
  if (typeof header !== 'string') return '';
  return header.slice(0, USER_AGENT_MAX).replace(UNSTORABLE, '');
}
