/**
 * The pieces of a signed call that hold no state: making a key's public id and secret, the HMAC of
 * a request, comparing signatures, and matching a client address against an allow-list. Both
 * signings use them: Bourse's own (headers, over `timestamp + METHOD + path + ?query + body`) and
 * the Binance-compatible one (over the raw query and body), which only differ in the text signed.
 */
import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { BlockList, isIP } from 'node:net';
import type { ApiKeyPermission } from '@bourse/shared';

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** `length` random letters and digits, uniformly drawn (64 of them: about 381 bits). */
export function randomAlphanumeric(length: number): string {
  let text = '';
  for (let i = 0; i < length; i++) text += ALPHANUMERIC[randomInt(ALPHANUMERIC.length)];
  return text;
}

/** The lower-case hex HMAC-SHA256 of the parts, in order, with the secret as the key. */
export function hmacHex(secret: string, parts: readonly (string | Buffer)[]): string {
  const hmac = createHmac('sha256', secret);
  for (const part of parts) hmac.update(part);
  return hmac.digest('hex');
}

const HEX_SIGNATURE = /^[0-9a-fA-F]{64}$/;

/** Whether a signature as sent (hex, either case) is the expected one; in constant time. */
export function signaturesMatch(expectedHex: string, givenHex: string): boolean {
  if (!HEX_SIGNATURE.test(givenHex)) return false;
  return timingSafeEqual(Buffer.from(expectedHex, 'hex'), Buffer.from(givenHex, 'hex'));
}

/**
 * What Bourse's own signing covers before the body: the timestamp as sent, the method, the path
 * and, when the URL has one, `?` and the raw query, all exactly as the request line carries them.
 */
export function signedPrefix(timestamp: string, method: string, url: string): string {
  return `${timestamp}${method.toUpperCase()}${url}`;
}

/**
 * Whether a client address is on an allow-list of addresses and CIDR ranges (an empty list
 * allows any). An IPv4 client seen as an IPv4-mapped IPv6 address matches its IPv4 entries.
 */
export function addressAllowed(ipList: readonly string[], ip: string): boolean {
  if (ipList.length === 0) return true;
  const kind = isIP(ip);
  if (kind === 0) return false;
  const list = new BlockList();
  for (const entry of ipList) {
    const [address = '', prefix] = entry.split('/');
    const type = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(prefix), type);
  }
  return list.check(ip, kind === 6 ? 'ipv6' : 'ipv4');
}

/** Whether a key's permissions include the one a route asks. */
export function permits(
  permissions: readonly ApiKeyPermission[],
  needed: ApiKeyPermission | undefined,
): needed is ApiKeyPermission {
  return needed !== undefined && permissions.includes(needed);
}
