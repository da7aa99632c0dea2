/**
 * API keys (issue 20): what a user creates to let a program call the API in their name, and how
 * such a call is signed. A key has a public id (`apiKey`, 64 letters and digits, as Binance's) and
 * a secret (64 more, answered once at creation), permissions (`read`, `trade`: never withdrawals
 * or transfers, there is no such permission), an optional allow-list of client addresses and an
 * optional expiry; it acts in the book (live or demo) of the session that created it.
 *
 * A signed call carries four headers (API_KEY.headers): the key, the time in milliseconds, the
 * signature (hex HMAC-SHA256 with the secret over `timestamp + METHOD + path + ('?' + raw query,
 * when there is one) + raw body`) and, optionally, the receive window. docs/api.md has a worked
 * example.
 */
import { z } from 'zod';
import { intField, optionalInt, pageQuery, safeString, text } from './common';
import { optionalTwoFactorCode } from './security';

/** What a key may be allowed: reading, trading. Nothing else exists, by design. */
export const API_KEY_PERMISSIONS = ['read', 'trade'] as const;
export type ApiKeyPermission = (typeof API_KEY_PERMISSIONS)[number];

export const API_KEY = {
  /** Keys a user may have at once that are neither revoked nor expired. */
  maxLiveKeys: 30,
  labelMaxLength: 64,
  /** Addresses or ranges of an allow-list (empty: any address). */
  maxAddresses: 30,
  maxExpireDays: 365,
  /** Letters and digits of the public id and of the secret. */
  keyLength: 64,
  secretLength: 64,
  /** Days the usage log keeps a call. */
  usageKeepDays: 30,
  /** The receive window of a signed call, when it names none, and the largest it may name. */
  recvWindowDefaultMs: 5000,
  recvWindowMaxMs: 60_000,
  /** The headers of a signed call (HTTP header names are case-insensitive). */
  headers: {
    key: 'X-BOURSE-APIKEY',
    timestamp: 'X-BOURSE-TIMESTAMP',
    signature: 'X-BOURSE-SIGNATURE',
    recvWindow: 'X-BOURSE-RECV-WINDOW',
  },
} as const;

/** The refusals of a call made with a key, for the reference. */
export const API_KEY_CALL_HINTS = [
  'hint_apiKeyHeader',
  'hint_apiKeyUnknown',
  'hint_apiKeyRevoked',
  'hint_apiKeyExpired',
  'hint_apiKeyTimestamp',
  'hint_apiKeySignature',
  'hint_apiKeySignatureReused',
  'hint_apiKeyAddress',
  'hint_apiKeyPermission',
  'hint_apiKeyRouteClosed',
] as const;

/** Whether a text is an IPv4 or IPv6 address or a CIDR range of either. */
const ipEntry = z.union([z.ipv4(), z.ipv6(), z.cidrv4(), z.cidrv6()]);
export function isIpEntry(value: string): boolean {
  return ipEntry.safeParse(value).success;
}

/** A list sent as an array, a repeated form field, or one text separated by commas or spaces. */
function listOf(value: unknown): unknown {
  if (value === null) return undefined;
  if (typeof value === 'string') return value.split(/[\s,]+/).filter(Boolean);
  return value;
}

/**
 * The addresses a key is accepted from: at most 30 IPv4 or IPv6 addresses or CIDR ranges
 * (`203.0.113.7`, `10.0.0.0/8`, `2001:db8::/32`); an empty list, any address. Duplicates are
 * dropped.
 */
export const ipListField = z.preprocess(
  listOf,
  z
    .array(safeString(64))
    .max(API_KEY.maxAddresses, { error: 'hint_ipListInvalid' })
    .refine((list) => list.every(isIpEntry), { error: 'hint_ipListInvalid' })
    .transform((list) => [...new Set(list)]),
);

/**
 * A key's permissions in their order, with what each implies: `trade` includes `read` (as on
 * Binance, where reading is never off), since a bot that places orders reads its balances and
 * orders. The app's form and the server's schema both go through it.
 */
export function withImpliedPermissions(list: readonly string[]): ApiKeyPermission[] {
  return API_KEY_PERMISSIONS.filter(
    (permission) => list.includes(permission) || (permission === 'read' && list.includes('trade')),
  );
}

/**
 * Permissions: `read`, `trade` (which includes read) or both, as a list or `read,trade`; read
 * alone when absent.
 */
export const permissionsField = z.preprocess(
  (value) => listOf(value) ?? ['read'],
  z
    .array(safeString(16))
    .min(1, { error: 'hint_apiKeyPermissions' })
    .refine(
      (list) => list.every((item) => (API_KEY_PERMISSIONS as readonly string[]).includes(item)),
      { error: 'hint_apiKeyPermissions' },
    )
    .transform(withImpliedPermissions),
);

const keyId = intField(1, Number.MAX_SAFE_INTEGER);
const label = text(API_KEY.labelMaxLength);

export const apiKeyListQuery = pageQuery;

export const apiKeyCreateBody = z.object({
  label: label.describe('A name for the key, to tell keys apart (1–64 characters).'),
  permissions: permissionsField.describe(
    '`read`, `trade` (which includes `read`) or both (default `read`).',
  ),
  ipList: z
    .preprocess((value) => value ?? [], ipListField)
    .describe('Addresses or CIDR ranges the key is accepted from (at most 30; none: any).'),
  expireDays: optionalInt(1, API_KEY.maxExpireDays).describe(
    'Days until the key expires (1–365); absent: it does not expire.',
  ),
  twoFactorCode: optionalTwoFactorCode.describe('Required once two-factor is on.'),
});
export type ApiKeyCreateBody = z.output<typeof apiKeyCreateBody>;

/** Changes a key's label or its allow-list (absent: unchanged; an empty list: any address). */
export const apiKeyUpdateBody = z.object({
  id: keyId,
  label: z.preprocess((value) => (value === '' ? undefined : value), label.optional()),
  ipList: z.preprocess((value) => value ?? undefined, ipListField.optional()),
  twoFactorCode: optionalTwoFactorCode.describe('Required once two-factor is on.'),
});
export type ApiKeyUpdateBody = z.output<typeof apiKeyUpdateBody>;

export const apiKeyRevokeBody = z.object({ id: keyId });
export type ApiKeyRevokeBody = z.output<typeof apiKeyRevokeBody>;

export const apiKeyUsageQuery = pageQuery.extend({
  keyId: optionalInt(1, Number.MAX_SAFE_INTEGER).describe('Only the calls of this key.'),
});
export type ApiKeyUsageQuery = z.output<typeof apiKeyUsageQuery>;

export const API_KEY_STATUSES = ['active', 'expired', 'revoked'] as const;

/** A key as its owner sees it: never its secret. */
export const apiKeyView = z.object({
  id: z.number().int(),
  label: z.string(),
  apiKey: z.string().describe('The public id, sent in X-BOURSE-APIKEY.'),
  permissions: z.array(z.enum(API_KEY_PERMISSIONS)),
  ipList: z.array(z.string()).describe('Addresses or ranges it is accepted from; empty: any.'),
  accountType: z.literal([0, 2]).describe('The book it acts in: 0 live, 2 demo.'),
  status: z.enum(API_KEY_STATUSES),
  expireTime: z.string().nullable(),
  createTime: z.string(),
  updateTime: z.string(),
  lastUsedTime: z.string().nullable().describe('Its last accepted call (at most a minute late).'),
  revokeTime: z.string().nullable(),
});
export type ApiKeyView = z.output<typeof apiKeyView>;

/** A key just created: its secret, this once. */
export const apiKeyCreated = apiKeyView.extend({
  secret: z.string().describe('The signing secret: shown this once, never again.'),
});
export type ApiKeyCreated = z.output<typeof apiKeyCreated>;

/** One call made with one of the user's keys (accepted or refused). */
export const apiKeyUse = z.object({
  id: z.number().int(),
  keyId: z.number().int(),
  label: z.string(),
  time: z.string(),
  method: z.string(),
  path: z.string(),
  ip: z.string().nullable(),
  status: z.number().int().describe('The HTTP status of the answer.'),
  msg: z.string().describe('Its hint key (hint_success when accepted).'),
});
export type ApiKeyUse = z.output<typeof apiKeyUse>;
