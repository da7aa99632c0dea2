/**
 * What the API key screens check and show before and after a call: the allow-list as typed (one
 * address or range a line, checked by the shared rule the server applies), the expiry choices, the
 * field a refusal belongs under, what the QR code of a new key holds, and a usage row's reason.
 */
import {
  API_KEY,
  isIpEntry,
  TWO_FACTOR_CODE_HINTS,
  type ApiKeyCreated,
  type ApiKeyView,
} from '@bourse/shared';

/** Days until a new key expires; 0: it does not expire. */
export const EXPIRY_CHOICES = [0, 30, 90, 365] as const;
export type ExpiryChoice = (typeof EXPIRY_CHOICES)[number];

/** A problem to show: a message key and its parameters. */
export interface Problem {
  key: string;
  params: readonly unknown[];
}

/**
 * The allow-list as typed: one address or CIDR range a line (commas and spaces also separate, as
 * the server reads them), blank lines skipped, duplicates dropped. The first entry that is no
 * address is named with its line; more than API_KEY.maxAddresses entries are refused.
 */
export function parseAllowList(value: string): { entries: string[]; problem?: Problem } {
  const entries: string[] = [];
  const lines = value.split(/\r?\n/);
  for (const [index, line] of lines.entries()) {
    for (const entry of line.split(/[\s,]+/).filter(Boolean)) {
      if (!isIpEntry(entry)) {
        return {
          entries,
          problem: { key: 'apiKeys_ipLineInvalid', params: [index + 1, entry] },
        };
      }
      if (!entries.includes(entry)) entries.push(entry);
    }
  }
  if (entries.length > API_KEY.maxAddresses) {
    return { entries, problem: { key: 'hint_ipListInvalid', params: ['ipList'] } };
  }
  return { entries };
}

/** The allow-list of a key as the form shows it: one entry a line. */
export function allowListText(key: Pick<ApiKeyView, 'ipList'>): string {
  return key.ipList.join('\n');
}

export type ApiKeyField = 'label' | 'permissions' | 'ipList' | 'expireDays' | 'twoFactorCode';
const FIELDS: readonly string[] = ['label', 'permissions', 'ipList', 'expireDays', 'twoFactorCode'];

/** The field a refusal of the server is about, to show it under that field. */
export function fieldOfRefusal(msg: string, params: readonly unknown[]): ApiKeyField | undefined {
  if ((TWO_FACTOR_CODE_HINTS as readonly string[]).includes(msg)) return 'twoFactorCode';
  if (msg === 'hint_ipListInvalid') return 'ipList';
  if (msg === 'hint_apiKeyPermissions') return 'permissions';
  const [first] = params;
  return typeof first === 'string' && FIELDS.includes(first) ? (first as ApiKeyField) : undefined;
}

/**
 * What the QR code of a new key holds, for a bot on a phone to scan: the key and its secret as
 * JSON, `{"apiKey":"…","secret":"…"}`.
 */
export function secretQrValue(created: Pick<ApiKeyCreated, 'apiKey' | 'secret'>): string {
  return JSON.stringify({ apiKey: created.apiKey, secret: created.secret });
}

/** The start of a key's public id, as the notice emails name it. */
export function shortKey(apiKey: string): string {
  return apiKey.length > 8 ? `${apiKey.slice(0, 8)}…` : apiKey;
}

/**
 * A usage row's reason: the refusal's message without the figures the log does not keep (the
 * server's `{0}` and the like become an ellipsis).
 */
export function reasonText(template: string): string {
  return template.replace(/\{\d{1,2}\}/g, '…');
}
