/**
 * The calls that manage a user's API keys (/api/apiKey): list, create (the secret answered once),
 * change the label or the allow-list, revoke, and the usage log of the last 30 days. None of them
 * can be made with a key: only a signed-in user manages keys.
 */
import {
  apiKeyCreateBody,
  apiKeyCreated,
  apiKeyListQuery,
  apiKeyRevokeBody,
  apiKeyUpdateBody,
  apiKeyUsageQuery,
  apiKeyUse,
  apiKeyView,
} from '../schemas/api-keys';
import { TWO_FACTOR_CODE_HINTS } from '../schemas/security';
import { route } from './route';

export const apiKeysApi = {
  list: route({
    method: 'GET',
    path: '/api/apiKey/list',
    auth: 'user',
    summary:
      "The user's API keys, newest first: label, public id, permissions, allow-list, book, status and times; never a secret.",
    query: apiKeyListQuery,
    rows: apiKeyView,
  }),
  create: route({
    method: 'POST',
    path: '/api/apiKey/create',
    auth: 'user',
    summary:
      'Creates an API key acting in the book of this session (live or demo), with a two-factor code once two-factor is on; answers its secret this once, and emails the user.',
    body: apiKeyCreateBody,
    data: apiKeyCreated,
    hints: ['hint_apiKeyLimit', ...TWO_FACTOR_CODE_HINTS],
  }),
  update: route({
    method: 'POST',
    path: '/api/apiKey/update',
    auth: 'user',
    summary:
      "Changes a key's label or address allow-list (an empty list: any address), with a two-factor code once two-factor is on; emails the user.",
    body: apiKeyUpdateBody,
    data: apiKeyView,
    hints: ['hint_notFound', 'hint_apiKeyRevoked', ...TWO_FACTOR_CODE_HINTS],
  }),
  revoke: route({
    method: 'POST',
    path: '/api/apiKey/revoke',
    auth: 'user',
    summary:
      'Revokes a key at once, on every instance (hint_48 when it was revoked already); emails the user.',
    body: apiKeyRevokeBody,
    data: apiKeyView,
    hints: ['hint_notFound'],
  }),
  usage: route({
    method: 'GET',
    path: '/api/apiKey/usage',
    auth: 'user',
    summary:
      "The calls made with the user's keys in the last 30 days, newest first, accepted or refused: key, time, method, path, address, HTTP status and hint key.",
    query: apiKeyUsageQuery,
    rows: apiKeyUse,
  }),
};
