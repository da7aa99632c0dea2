// @vitest-environment node
/**
 * The request client against a real HTTP server: every branch of the spec's error catalogue
 * (SEED-SPEC section 8), the default headers, the body encodings and the timeout.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { languageByKey } from '@bourse/shared';
import { startTestServer, type TestServer } from '../test/http-server';
import {
  ApiError,
  createClient,
  FIRST_REQUEST_TIMEOUT_MS,
  REQUEST_TIMEOUT_AFTER_RESPONSE_MS,
  type Client,
} from './client';

let server: TestServer;
let toasts: string[];
let unauthorized: number;
let token: string | undefined;
let client: Client;

const messages: Record<string, string> = {
  net_timeout: 'Request timeout',
  net_error: 'Interface exception, please try again later',
  hint_insufficientBalance: 'Insufficient balance',
  hint_tooManyRequests: 'Too many requests, please try again in {0} seconds',
};

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

beforeEach(() => {
  toasts = [];
  unauthorized = 0;
  token = 'secret-token';
  server.requests.length = 0;
  client = createClient({
    baseUrl: () => server.url,
    token: () => token,
    language: () => languageByKey('de')!,
    translate: (key, params = []) =>
      (messages[key] ?? key).replace(/\{(\d)\}/g, (_, i: string) => String(params[Number(i)])),
    toast: (message) => toasts.push(message),
    onUnauthorized: () => (unauthorized += 1),
  });
});

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('request client', () => {
  it('sends the default headers and encodes query parameters', async () => {
    server.answer('/api/siteInfo/getSiteInfo', {
      body: { code: 200, msg: 'hint_success', data: { a: 1 } },
    });
    const data = await client.get('/api/siteInfo/getSiteInfo', {
      pageNum: 1,
      keyWords: 'a b',
      skip: undefined,
    });
    expect(data).toEqual({ a: 1 });
    const [request] = server.requests;
    expect(request!.headers['accept-language']).toBe('de');
    expect(request!.headers.languageid).toBe('4');
    expect(request!.headers.authorization).toBe('Bearer secret-token');
    expect(request!.query.get('pageNum')).toBe('1');
    expect(request!.query.get('keyWords')).toBe('a b');
    expect(request!.query.has('skip')).toBe(false);
  });

  it('reads a file as a Blob with the usual headers, and its refusals as envelopes', async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
    server.answer('/api/file', { file: { type: 'image/png', data: png } });
    const blob = await client.file('/api/file', { id: 7 });
    expect(blob.type).toBe('image/png');
    expect(Buffer.from(await blob.arrayBuffer())).toEqual(png);
    expect(server.requests[0]!.query.get('id')).toBe('7');
    expect(server.requests[0]!.headers.authorization).toBe('Bearer secret-token');
    server.answer('/api/missing', {
      status: 404,
      body: { code: 500, msg: 'hint_insufficientBalance' },
    });
    const error = await failure(client.file('/api/missing'));
    expect(error.kind).toBe('rejected');
    expect(toasts).toEqual(['Insufficient balance']);
  });

  it('sends no Authorization header when signed out', async () => {
    token = undefined;
    server.answer('/api/x', { body: { code: 200, msg: 'hint_success' } });
    await client.get('/api/x');
    expect(server.requests[0]!.headers.authorization).toBeUndefined();
  });

  it('posts form-encoded by default and JSON when asked, objects as JSON text', async () => {
    server.answer('/api/form', { body: { code: 200, msg: 'hint_success', data: 'ok' } });
    server.answer('/api/json', { body: { code: 200, msg: 'hint_success', data: 'ok' } });
    await client.post('/api/form', { amount: '12.34', detail: { a: 1 } });
    await client.post('/api/json', { productCode: 'AAPL', productType: 1 }, { json: true });
    const [form, json] = server.requests;
    expect(form!.headers['content-type']).toContain('application/x-www-form-urlencoded');
    expect(new URLSearchParams(form!.body).get('amount')).toBe('12.34');
    expect(new URLSearchParams(form!.body).get('detail')).toBe('{"a":1}');
    expect(json!.headers['content-type']).toBe('application/json');
    expect(JSON.parse(json!.body)).toEqual({ productCode: 'AAPL', productType: 1 });
  });

  it('returns paged envelopes whole', async () => {
    server.answer('/api/list', {
      body: { code: 200, msg: 'hint_success', rows: [1, 2], total: 7 },
    });
    const page = await client.page('/api/list', { pageNum: 1, pageSize: 2 });
    expect(page.rows).toEqual([1, 2]);
    expect(page.total).toBe(7);
  });

  it('treats msg hint_48 as a normal result, whatever the code', async () => {
    server.answer('/api/idem', {
      status: 200,
      body: { code: 500, msg: 'hint_48', data: { id: 3 } },
    });
    await expect(client.post('/api/idem', {})).resolves.toEqual({ id: 3 });
    expect(toasts).toEqual([]);
  });

  it('on 401 clears the session through onUnauthorized, silently', async () => {
    server.answer('/api/me', { status: 401, body: { code: 401, msg: 'hint_sessionExpired' } });
    const error = await failure(client.get('/api/me'));
    expect(error.kind).toBe('unauthorized');
    expect(error.handled).toBe(true);
    expect(unauthorized).toBe(1);
    expect(toasts).toEqual([]);
  });

  it('swallows 209 silently (the promise still settles)', async () => {
    server.answer('/api/dup', { status: 409, body: { code: 209, msg: 'hint_duplicateInFlight' } });
    const error = await failure(client.post('/api/dup', {}, { catchError: true }));
    expect(error.kind).toBe('duplicate');
    expect(error.handled).toBe(true);
    expect(toasts).toEqual([]);
  });

  it('toasts a 500 rejection translated and formatted with its params', async () => {
    server.answer('/api/limited', {
      status: 429,
      body: { code: 500, msg: 'hint_tooManyRequests', params: [30] },
    });
    const error = await failure(client.get('/api/limited'));
    expect(toasts).toEqual(['Too many requests, please try again in 30 seconds']);
    expect(error.kind).toBe('rejected');
    expect(error.msg).toBe('hint_tooManyRequests');
    expect(error.params).toEqual([30]);
    expect(error.handled).toBe(true);
  });

  it("falls back to the server's own text for a key the app does not know", async () => {
    server.answer('/api/new', {
      status: 422,
      body: { code: 500, msg: 'hint_brandNew', text: 'Server text' },
    });
    await failure(client.get('/api/new'));
    expect(toasts).toEqual(['Server text']);
  });

  it('rejects other codes to the caller only when it asked to catch errors', async () => {
    server.answer('/api/forbidden', { status: 403, body: { code: 403, msg: 'hint_forbidden' } });
    const swallowed = await failure(client.get('/api/forbidden'));
    expect(swallowed.handled).toBe(true);
    const caught = await failure(client.get('/api/forbidden', undefined, { catchError: true }));
    expect(caught.kind).toBe('other');
    expect(caught.code).toBe(403);
    expect(caught.handled).toBe(false);
    expect(toasts).toEqual([]);
  });

  it("toasts 'Request timeout' when the server does not answer in time", async () => {
    server.answer('/api/slow', { delayMs: 500, body: { code: 200, msg: 'hint_success' } });
    const error = await failure(client.get('/api/slow', undefined, { timeoutMs: 50 }));
    expect(error.kind).toBe('timeout');
    expect(toasts).toEqual(['Request timeout']);
  });

  it("toasts 'Interface exception' when the connection fails or the answer is not an envelope", async () => {
    server.answer('/api/drop', { drop: true });
    server.answer('/api/proxy', { html: '<h1>Bad gateway</h1>', status: 502 });
    server.answer('/api/odd', { body: { hello: 'world' } });
    for (const path of ['/api/drop', '/api/proxy', '/api/odd']) {
      const error = await failure(client.get(path));
      expect(error.kind).toBe('network');
    }
    expect(toasts).toEqual(Array(3).fill('Interface exception, please try again later'));
  });

  it('settles quietly when the caller aborts', async () => {
    server.answer('/api/slow', { delayMs: 300, body: { code: 200, msg: 'hint_success' } });
    const controller = new AbortController();
    const pending = client.get('/api/slow', undefined, { signal: controller.signal });
    controller.abort();
    const error = await failure(pending);
    expect(error.handled).toBe(true);
    expect(toasts).toEqual([]);
  });

  it('is a success only under HTTP 200–299 with envelope code 200', async () => {
    server.answer('/api/created', {
      status: 201,
      body: { code: 200, msg: 'hint_success', data: 1 },
    });
    server.answer('/api/edge', { status: 299, body: { code: 200, msg: 'hint_success', data: 2 } });
    await expect(client.get('/api/created')).resolves.toBe(1);
    await expect(client.get('/api/edge')).resolves.toBe(2);
    // An envelope saying 200 under an HTTP failure is not a success.
    for (const status of [300, 500, 503]) {
      server.answer('/api/broken', { status, body: { code: 200, msg: 'hint_success', data: 3 } });
      const error = await failure(client.get('/api/broken'));
      expect(error.kind).toBe('network');
    }
    expect(toasts).toEqual(Array(3).fill('Interface exception, please try again later'));
  });
});

describe('request timeout (spec section 9: 60 s, and 10,000 ms set after each response)', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    // The server never answers within the test: its answer waits for a day of fake time.
    server.answer('/api/hang', { delayMs: 86_400_000, body: { code: 200, msg: 'hint_success' } });
    server.answer('/api/quick', { body: { code: 200, msg: 'hint_success', data: 'ok' } });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** Advances fake time and tells whether the call has settled by then. */
  async function settledAfter(promise: Promise<unknown>, ms: number): Promise<boolean> {
    let settled = false;
    promise.then(
      () => (settled = true),
      () => (settled = true),
    );
    await vi.advanceTimersByTimeAsync(ms);
    // Let the abort reach the fetch and its rejection the client.
    for (let turn = 0; turn < 20 && !settled; turn++) await new Promise((r) => setImmediate(r));
    return settled;
  }

  async function waitForRequest(path: string) {
    for (let turn = 0; turn < 200; turn++) {
      if (server.requests.some((request) => request.path === path)) return;
      await new Promise((r) => setImmediate(r));
    }
    throw new Error(`no request to ${path}`);
  }

  it('waits 60 s for the first answer', async () => {
    expect(FIRST_REQUEST_TIMEOUT_MS).toBe(60_000);
    const pending = client.get('/api/hang');
    pending.catch(() => undefined);
    await waitForRequest('/api/hang');
    expect(await settledAfter(pending, 59_000)).toBe(false);
    expect(await settledAfter(pending, 1_000)).toBe(true);
    const error = await failure(pending);
    expect(error.kind).toBe('timeout');
    expect(toasts).toEqual(['Request timeout']);
  });

  it('waits 10,000 ms once the server has answered', async () => {
    expect(REQUEST_TIMEOUT_AFTER_RESPONSE_MS).toBe(10_000);
    await expect(client.get('/api/quick')).resolves.toBe('ok');
    const pending = client.get('/api/hang');
    pending.catch(() => undefined);
    await waitForRequest('/api/hang');
    expect(await settledAfter(pending, 9_900)).toBe(false);
    expect(await settledAfter(pending, 100)).toBe(true);
    expect((await failure(pending)).kind).toBe('timeout');
  });

  it("an answer that is an error counts as an answer too; a call's own limit still wins", async () => {
    server.answer('/api/refused', { status: 403, body: { code: 403, msg: 'hint_forbidden' } });
    await failure(client.get('/api/refused'));
    const pending = client.get('/api/hang');
    pending.catch(() => undefined);
    await waitForRequest('/api/hang');
    expect(await settledAfter(pending, 10_000)).toBe(true);
    const own = client.get('/api/hang', undefined, { timeoutMs: 30_000 });
    own.catch(() => undefined);
    expect(await settledAfter(own, 10_000)).toBe(false);
    expect(await settledAfter(own, 20_000)).toBe(true);
  });
});
