/**
 * Bourse's own signing of calls made with an API key, as the Router's key guard: four headers
 * (API_KEY.headers) carry the key's public id, the time in milliseconds, the signature and,
 * optionally, the receive window (default 5 s, at most 60 s). The signature is the lower-case hex
 * HMAC-SHA256, with the key's secret, of
 *
 *   timestamp + METHOD + path + ('?' + raw query, when the URL has one) + raw body
 *
 * exactly as sent (docs/api.md works one example through; apps/server/test/api-keys.test.ts
 * reproduces it). Checked in this order, each refusal translated: the key (401), the route open to
 * keys (403), the headers and the time within the window either side (401), the signature (401),
 * the client's address (403), the permission the route asks (403), and the signature not used
 * before (401). The key then acts as its user, in its book.
 */
import type { FastifyRequest } from 'fastify';
import { API_KEY, type Route } from '@bourse/shared';
import { clientIp } from '../../http/client';
import { rawBodyOf } from '../../http/raw-body';
import type { ApiKeyResolver, KeyCall, Session } from '../../http/router';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import type { ApiKeyCalls, CallKey } from './calls';
import { signedPrefix } from './signing';

/** A call whose key is known. */
interface SignedCall extends KeyCall {
  readonly key: CallKey;
}

type HeaderName = keyof typeof API_KEY.headers;

function header(request: FastifyRequest, name: HeaderName): string | undefined {
  const value = request.headers[API_KEY.headers[name].toLowerCase()];
  return typeof value === 'string' ? value.trim() : undefined;
}

/** A header that is missing or malformed: 401 naming it. */
function badHeader(name: HeaderName): AppError {
  return new AppError('hint_apiKeyHeader', 401, [API_KEY.headers[name]]);
}

export class BourseSignedCalls implements ApiKeyResolver {
  constructor(
    private readonly calls: ApiKeyCalls,
    private readonly clock: Clock,
  ) {}

  async identify(request: FastifyRequest): Promise<SignedCall> {
    const apiKey = header(request, 'key');
    if (!apiKey) throw badHeader('key');
    const key = await this.calls.find(apiKey);
    if (!key) throw new AppError('hint_apiKeyUnknown', 401);
    return { keyId: key.id, userId: key.userId, key };
  }

  async authorize(call: SignedCall, request: FastifyRequest, route: Route): Promise<Session> {
    const { key } = call;
    this.calls.refuseUnusable(key);
    if (route.key === undefined) throw new AppError('hint_apiKeyRouteClosed', 403);

    const timestamp = header(request, 'timestamp');
    if (!timestamp || !/^\d{1,16}$/.test(timestamp)) throw badHeader('timestamp');
    const windowText = header(request, 'recvWindow');
    const windowMs = windowText === undefined ? API_KEY.recvWindowDefaultMs : Number(windowText);
    if (
      (windowText !== undefined && !/^\d{1,6}$/.test(windowText)) ||
      windowMs < 1 ||
      windowMs > API_KEY.recvWindowMaxMs
    )
      throw badHeader('recvWindow');
    const signature = header(request, 'signature');
    if (!signature || !/^[0-9a-fA-F]{64}$/.test(signature)) throw badHeader('signature');

    const sentAt = Number(timestamp);
    if (Math.abs(this.clock.now().getTime() - sentAt) > windowMs)
      throw new AppError('hint_apiKeyTimestamp', 401, [windowMs]);
    const body = rawBodyOf(request) ?? Buffer.alloc(0);
    const signed = [signedPrefix(timestamp, request.method, request.url), body];
    if (!(await this.calls.verifySignature(key, signed, signature)))
      throw new AppError('hint_apiKeySignature', 401);

    const ip = clientIp(request);
    if (!this.calls.allowsAddress(key, ip)) throw new AppError('hint_apiKeyAddress', 403, [ip]);
    if (!this.calls.allows(key, route.key))
      throw new AppError('hint_apiKeyPermission', 403, [route.key]);
    if (!(await this.calls.claimSignature(key, signature, new Date(sentAt + windowMs))))
      throw new AppError('hint_apiKeySignatureReused', 401);
    return this.calls.sessionOf(key);
  }

  record(
    call: SignedCall,
    request: FastifyRequest,
    answer: { status: number; msg: string },
  ): Promise<void> {
    return this.calls.recordUse({
      key: call.key,
      method: request.method,
      path: request.routeOptions.url ?? request.url.split('?')[0]!,
      ip: clientIp(request),
      ...answer,
    });
  }
}
