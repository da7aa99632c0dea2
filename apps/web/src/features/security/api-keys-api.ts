/**
 * The API key calls of /api/apiKey: list, create (its secret answered this once), change the label
 * or the allow-list, revoke, and the usage log. Lists go as one text (`read,trade`, addresses
 * separated by commas), as the form encoding takes them.
 */
import { apiKeysApi as routes, type ApiKeyPermission } from '@bourse/shared';
import { api } from '../../api';

/** The keys' queries (the list, one key, the usage log) all start with it. */
export const API_KEYS_KEY = ['apiKeys'] as const;

type Page = { pageNum: number; pageSize: number };

export function fetchApiKeys(page: Page) {
  return api.call(routes.list, page);
}

/** Pages read at most looking for one key (keys are few: 30 live at most, plus revoked ones). */
const FIND_PAGE_SIZE = 100;
const FIND_MAX_PAGES = 20;

/** One of the user's keys by its id (undefined when it is not theirs, or gone). */
export async function findApiKey(id: number) {
  for (let pageNum = 1; pageNum <= FIND_MAX_PAGES; pageNum++) {
    const { rows, total } = await fetchApiKeys({ pageNum, pageSize: FIND_PAGE_SIZE });
    const found = rows.find((key) => key.id === id);
    if (found) return found;
    if (rows.length === 0 || pageNum * FIND_PAGE_SIZE >= total) return undefined;
  }
  return undefined;
}

export interface NewApiKey {
  label: string;
  permissions: readonly ApiKeyPermission[];
  ipList: readonly string[];
  /** Days until it expires; absent: never. */
  expireDays?: number | undefined;
  /** Once two-factor is on. */
  twoFactorCode?: string | undefined;
}

export function createApiKey(key: NewApiKey) {
  return api.call(
    routes.create,
    {
      label: key.label,
      permissions: key.permissions.join(','),
      ipList: key.ipList.join(','),
      expireDays: key.expireDays,
      twoFactorCode: key.twoFactorCode,
    },
    { catchError: true },
  );
}

export interface ApiKeyChange {
  id: number;
  label: string;
  /** Empty: any address. */
  ipList: readonly string[];
  twoFactorCode?: string | undefined;
}

export function updateApiKey(change: ApiKeyChange) {
  return api.call(
    routes.update,
    {
      id: change.id,
      label: change.label,
      ipList: change.ipList.join(','),
      twoFactorCode: change.twoFactorCode,
    },
    { catchError: true },
  );
}

export function revokeApiKey(id: number) {
  return api.call(routes.revoke, { id }, { catchError: true });
}

export function fetchApiKeyUsage(keyId: number, page: Page) {
  return api.call(routes.usage, { ...page, keyId });
}
