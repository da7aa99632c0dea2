// @vitest-environment node
/**
 * The API key calls (apiKeysApi: list, create, update, revoke, usage) against a real HTTP server:
 * each goes to its path with its method and the session's token, and what a form posts reads, by
 * the schema the server parses it with, as the key the user asked for (lists go as one text); and
 * the rules of the key screens: the allow-list as typed, the field a refusal belongs under, what
 * the QR code of a new key holds.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import {
  accountApi,
  API_KEY,
  apiKeyCreateBody,
  apiKeysApi,
  apiKeyUpdateBody,
  type ApiKeyView,
} from '@bourse/shared';
import { ApiError } from '../../api';
import { setItem, STORAGE_KEY } from '../../lib/storage';
import { rowsAnswer, serveAsApiLine } from '../../test/api-line';
import {
  createApiKey,
  fetchApiKeys,
  fetchApiKeyUsage,
  findApiKey,
  revokeApiKey,
  updateApiKey,
} from './api-keys-api';
import {
  allowListText,
  fieldOfRefusal,
  parseAllowList,
  reasonText,
  secretQrValue,
  shortKey,
} from './api-key-rules';

const server = serveAsApiLine();
const done = (data?: unknown, msg = 'hint_success') => ({ body: { code: 200, msg, data } });
const form = (body: string) => Object.fromEntries(new URLSearchParams(body));

beforeEach(() => {
  setItem(STORAGE_KEY.token, 'secret-token');
});

const key: ApiKeyView = {
  id: 7,
  label: 'Grid bot',
  apiKey: 'A'.repeat(API_KEY.keyLength),
  permissions: ['read', 'trade'],
  ipList: ['203.0.113.7', '10.0.0.0/8'],
  accountType: 0,
  status: 'active',
  expireTime: '2027-02-25T08:00:00.000Z',
  createTime: '2026-11-27T08:00:00.000Z',
  updateTime: '2026-11-27T08:00:00.000Z',
  lastUsedTime: null,
  revokeTime: null,
};

describe('API key calls', () => {
  it('reads a page of keys with the token', async () => {
    server.answer(apiKeysApi.list.path, rowsAnswer([key]));
    await expect(fetchApiKeys({ pageNum: 2, pageSize: 20 })).resolves.toEqual({
      rows: [key],
      total: 1,
    });
    const [request] = server.requests;
    expect(request).toMatchObject({ method: 'GET', path: apiKeysApi.list.path });
    expect(Object.fromEntries(request!.query)).toEqual({ pageNum: '2', pageSize: '20' });
    expect(request!.headers.authorization).toBe('Bearer secret-token');
  });

  it('finds one key page by page, and says when it is not there', async () => {
    const others = Array.from({ length: 100 }, (_, index) => ({ ...key, id: 1000 + index }));
    server.answer(apiKeysApi.list.path, (request) => ({
      body: {
        code: 200,
        msg: 'hint_success',
        rows: request.query.get('pageNum') === '1' ? others : [key],
        total: 101,
      },
    }));
    await expect(findApiKey(7)).resolves.toEqual(key);
    expect(server.requests.map((request) => request.query.get('pageNum'))).toEqual(['1', '2']);
    server.requests.length = 0;
    await expect(findApiKey(8)).resolves.toBeUndefined();
    expect(server.requests).toHaveLength(2);
  });

  it('creates a key: what it posts reads as the key asked, the secret comes back', async () => {
    server.answer(apiKeysApi.create.path, done({ ...key, secret: 'S'.repeat(64) }));
    const created = await createApiKey({
      label: 'Grid bot',
      permissions: ['read', 'trade'],
      ipList: ['203.0.113.7', '10.0.0.0/8'],
      expireDays: 90,
      twoFactorCode: '123456',
    });
    expect(created.secret).toBe('S'.repeat(64));
    const [request] = server.requests;
    expect(request).toMatchObject({ method: 'POST', path: apiKeysApi.create.path });
    const sent = form(request!.body);
    expect(sent).toEqual({
      label: 'Grid bot',
      permissions: 'read,trade',
      ipList: '203.0.113.7,10.0.0.0/8',
      expireDays: '90',
      twoFactorCode: '123456',
    });
    expect(apiKeyCreateBody.parse(sent)).toEqual({
      label: 'Grid bot',
      permissions: ['read', 'trade'],
      ipList: ['203.0.113.7', '10.0.0.0/8'],
      expireDays: 90,
      twoFactorCode: '123456',
    });
  });

  it('creates a read key for any address that does not expire, without a code', async () => {
    server.answer(apiKeysApi.create.path, done({ ...key, secret: 'S'.repeat(64) }));
    await createApiKey({ label: 'Reader', permissions: ['read'], ipList: [] });
    const sent = form(server.requests[0]!.body);
    expect(sent).toEqual({ label: 'Reader', permissions: 'read', ipList: '' });
    const parsed = apiKeyCreateBody.parse(sent);
    expect(parsed).toMatchObject({ permissions: ['read'], ipList: [] });
    expect(parsed.expireDays).toBeUndefined();
    expect(parsed.twoFactorCode).toBeUndefined();
  });

  it('hands a refusal to the caller, with the field it names', async () => {
    server.answer(apiKeysApi.create.path, {
      status: 422,
      body: { code: 500, msg: 'hint_twoFactorWrong' },
    });
    const error = await createApiKey({ label: 'x', permissions: ['read'], ipList: [] }).catch(
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(fieldOfRefusal((error as ApiError).msg, (error as ApiError).params)).toBe(
      'twoFactorCode',
    );
  });

  it('changes the label and the allow-list; an empty list reads as any address', async () => {
    server.answer(apiKeysApi.update.path, done(key));
    await updateApiKey({ id: 7, label: 'Grid bot 2', ipList: ['2001:db8::/32'] });
    await updateApiKey({ id: 7, label: 'Grid bot 2', ipList: [], twoFactorCode: '654321' });
    const [first, second] = server.requests.map((request) => form(request.body));
    expect(first).toEqual({ id: '7', label: 'Grid bot 2', ipList: '2001:db8::/32' });
    expect(apiKeyUpdateBody.parse(first)).toMatchObject({ id: 7, ipList: ['2001:db8::/32'] });
    expect(apiKeyUpdateBody.parse(second)).toMatchObject({
      id: 7,
      ipList: [],
      twoFactorCode: '654321',
    });
  });

  it('revokes a key, a key revoked already being no failure', async () => {
    server.answer(apiKeysApi.revoke.path, done({ ...key, status: 'revoked' }, 'hint_48'));
    await revokeApiKey(7);
    expect(server.requests[0]).toMatchObject({ method: 'POST', path: apiKeysApi.revoke.path });
    expect(form(server.requests[0]!.body)).toEqual({ id: '7' });
  });

  it("reads a page of one key's usage", async () => {
    const use = {
      id: 1,
      keyId: 7,
      label: 'Grid bot',
      time: '2026-11-27T08:00:00.000Z',
      method: 'GET',
      path: accountApi.userInfo.path,
      ip: '127.0.0.1',
      status: 200,
      msg: 'hint_success',
    };
    server.answer(apiKeysApi.usage.path, rowsAnswer([use]));
    await expect(fetchApiKeyUsage(7, { pageNum: 1, pageSize: 20 })).resolves.toEqual({
      rows: [use],
      total: 1,
    });
    expect(Object.fromEntries(server.requests[0]!.query)).toEqual({
      pageNum: '1',
      pageSize: '20',
      keyId: '7',
    });
  });
});

describe('API key rules', () => {
  it('reads the allow-list one entry a line, skipping blanks and repeats', () => {
    expect(parseAllowList('')).toEqual({ entries: [] });
    expect(parseAllowList(' 203.0.113.7 \n\n10.0.0.0/8\r\n2001:db8::/32, 203.0.113.7')).toEqual({
      entries: ['203.0.113.7', '10.0.0.0/8', '2001:db8::/32'],
    });
    expect(allowListText({ ipList: ['203.0.113.7', '10.0.0.0/8'] })).toBe(
      '203.0.113.7\n10.0.0.0/8',
    );
  });

  it('names the line of an entry that is no address, and refuses too many', () => {
    expect(parseAllowList('203.0.113.7\n\nexample.com').problem).toEqual({
      key: 'apiKeys_ipLineInvalid',
      params: [3, 'example.com'],
    });
    expect(parseAllowList('10.0.0.300').problem?.params).toEqual([1, '10.0.0.300']);
    const many = Array.from({ length: API_KEY.maxAddresses + 1 }, (_, i) => `10.0.0.${i}`);
    expect(parseAllowList(many.join('\n')).problem).toEqual({
      key: 'hint_ipListInvalid',
      params: ['ipList'],
    });
    expect(parseAllowList(many.slice(1).join('\n')).problem).toBeUndefined();
  });

  it('puts a refusal under its field', () => {
    expect(fieldOfRefusal('hint_twoFactorRequired', [])).toBe('twoFactorCode');
    expect(fieldOfRefusal('hint_twoFactorLocked', [15])).toBe('twoFactorCode');
    expect(fieldOfRefusal('hint_ipListInvalid', ['ipList'])).toBe('ipList');
    expect(fieldOfRefusal('hint_apiKeyPermissions', ['permissions'])).toBe('permissions');
    expect(fieldOfRefusal('hint_paramRequired', ['label'])).toBe('label');
    expect(fieldOfRefusal('hint_apiKeyLimit', [30])).toBeUndefined();
    expect(fieldOfRefusal('hint_paramRequired', ['userPwd'])).toBeUndefined();
  });

  it('puts the key and its secret in the QR code as JSON', () => {
    const value = secretQrValue({ apiKey: 'k'.repeat(64), secret: 's'.repeat(64) });
    expect(JSON.parse(value)).toEqual({ apiKey: 'k'.repeat(64), secret: 's'.repeat(64) });
  });

  it('shortens a key as the notices do, and words a reason without its figures', () => {
    expect(shortKey('abcdefgh12345678')).toBe('abcdefgh…');
    expect(reasonText('Outside the window by {0} ms')).toBe('Outside the window by … ms');
  });
});
