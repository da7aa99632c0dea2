/**
 * Binance's signing of a call made with an API key, over the api-keys module's steps
 * (ApiKeyCalls): the key's public id in `X-MBX-APIKEY`, and among the parameters `timestamp`
 * (milliseconds), an optional `recvWindow` (5,000 by default, at most 60,000) and `signature`, the
 * lower-case hex HMAC-SHA256, with the key's secret, of the raw query string followed directly by
 * the raw form body, each exactly as received without its `signature` parameter (Binance's
 * `totalParams`). Checked in this order: the key (-2014 malformed, -2015 unknown, revoked,
 * expired or its user disabled), the time (-1021: more than the window behind the server, or
 * more than a second ahead), the signature (-1022), the client's address (-2015), the
 * permission (-2015), and for calls that change something (placing, cancelling) the signature
 * not used before (-1022): claimed until its window closes. Reads are not claimed: a client
 * making two identical reads in the same millisecond signs them alike (ccxt does), and a read
 * sent again only shows what it showed. The key then acts as its user in its book.
 */
import type { FastifyRequest } from 'fastify';
import { API_KEY, type ApiKeyPermission } from '@bourse/shared';
import { actorOf, type Actor } from '../../http/actor';
import { clientIp } from '../../http/client';
import { rawBodyOf } from '../../http/raw-body';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import type { ApiKeyCalls, CallKey } from '../api-keys';
import { refusals } from './errors';
import { Grouped } from './grouped';
import { Params } from './params';

/** Binance's key header (Node gives header names lower-cased). */
export const KEY_HEADER = 'x-mbx-apikey';
/** How far ahead of the server's clock a timestamp may be (Binance's second). */
const AHEAD_MS = 1000;
const KEY_FORMAT = /^[A-Za-z0-9]{1,64}$/;
const SIGNATURE = 'signature';

/** The raw query string of a request (after `?`), as received. */
export function queryText(url: string): string {
  const at = url.indexOf('?');
  return at < 0 ? '' : url.slice(at + 1);
}

/** A raw `a=1&b=2` text without its `signature` parameter. */
function withoutSignature(text: string): string {
  if (!text.includes(SIGNATURE)) return text;
  return text
    .split('&')
    .filter((part) => part.split('=')[0] !== SIGNATURE)
    .join('&');
}

/** A call whose key, signature and permission are verified. */
export interface SignedCall {
  key: CallKey;
  /** Its user in its book. */
  actor: Actor;
  params: Params;
}

export class BinanceSigning {
  /** Claims of signatures, grouped under load (grouped.ts). */
  private readonly claims: Grouped<{ key: CallKey; signature: string; until: Date }, boolean>;

  constructor(
    private readonly calls: ApiKeyCalls,
    private readonly clock: Clock,
  ) {
    this.claims = new Grouped(({ key, signature, until }) =>
      calls.claimSignature(key, signature, until, 'binance'),
    );
  }

  /** The key a call names, able to act: -2014 without a well-formed id, -2015 otherwise. */
  async key(request: FastifyRequest): Promise<CallKey> {
    const header = request.headers[KEY_HEADER];
    const apiKey = typeof header === 'string' ? header.trim() : '';
    if (!KEY_FORMAT.test(apiKey)) throw refusals.keyFormat();
    const key = await this.calls.find(apiKey);
    if (!key) throw refusals.key('hint_apiKeyUnknown');
    return key;
  }

  /**
   * Verifies a call of `key` that needs `permission`; `claim`: the signature is claimed once
   * (calls that change something).
   */
  async verify(
    request: FastifyRequest,
    key: CallKey,
    permission: ApiKeyPermission,
    claim: boolean,
  ): Promise<SignedCall> {
    try {
      this.calls.refuseUnusable(key);
    } catch (error) {
      if (error instanceof AppError) throw refusals.key(error.key);
      throw error;
    }
    // Latin-1 keeps every byte as one character: the texts signed are the bytes received.
    const query = queryText(request.url);
    const body = (rawBodyOf(request) ?? Buffer.alloc(0)).toString('latin1');
    const params = new Params([query, body]);

    const windowText = params.optional('recvWindow');
    if (windowText !== undefined && !/^\d{1,16}$/.test(windowText))
      throw refusals.invalidValue('recvWindow');
    const windowMs = windowText === undefined ? API_KEY.recvWindowDefaultMs : Number(windowText);
    if (windowMs > API_KEY.recvWindowMaxMs) throw refusals.recvWindow();
    if (windowMs < 1) throw refusals.invalidValue('recvWindow');
    const timestamp = params.optional('timestamp');
    if (timestamp === undefined || !/^\d{1,16}$/.test(timestamp))
      throw refusals.mandatory('timestamp');
    const sentAt = Number(timestamp);
    const now = this.clock.now().getTime();
    if (sentAt - now > AHEAD_MS) throw refusals.timestampAhead();
    if (now - sentAt > windowMs) throw refusals.timestampOutside();

    const signature = params.optional(SIGNATURE);
    if (signature === undefined) throw refusals.mandatory(SIGNATURE);
    const signed = [
      Buffer.from(withoutSignature(query), 'latin1'),
      Buffer.from(withoutSignature(body), 'latin1'),
    ];
    if (!(await this.calls.verifySignature(key, signed, signature))) throw refusals.signature();

    if (!this.calls.allowsAddress(key, clientIp(request))) throw refusals.key('hint_apiKeyAddress');
    if (!this.calls.allows(key, permission)) throw refusals.key('hint_apiKeyPermission');
    if (claim && !(await this.claims.add({ key, signature, until: new Date(sentAt + windowMs) })))
      throw refusals.signatureReused();
    return { key, actor: actorOf(this.calls.sessionOf(key)), params };
  }
}
