/**
 * Hostile input on every route: every route the Router registered (taken from the app,
 * not from a list kept here), every field of its query and body schemas, set to a text with NUL,
 * a lone surrogate, 100 KB of text and values of the wrong type, the other fields at plausible
 * valid values derived from the schemas. Nothing may answer 5xx (or log a failure), and the text
 * cases must be refused (4xx); NUL and lone surrogates in a text field with 400
 * `hint_textInvalidCharacters` naming the field. A text field that reached the database
 * unchecked would answer 500 (PostgreSQL refuses NUL, and a lone surrogate in JSON) or 200 (a lone
 * surrogate stored as U+FFFD). Routes are walked one after another (a sign-out ends the session:
 * it is renewed), the cases of a route in batches.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { ADMIN_USERNAME, adminLogin } from '../src/admin-login';
import { registeredRoutes, type RegisteredRoute } from '../src/http/router';
import { DEFAULT_CATALOGUE } from '../src/market/catalogue';
import { ManualClock } from '../src/lib/clock';
import {
  call,
  createTestApp,
  GOOD_PASSWORD,
  onPostgres,
  registerUser,
  testConfig,
  type TestApp,
} from './helpers';
import { operatorReady } from './support/admin-api';
import { ScriptedFeed } from './support/scripted-feed';

const NOW = Date.UTC(2025, 0, 6, 12, 0, 0);
const BTC = DEFAULT_CATALOGUE.find((product) => product.code === 'BTCUSDT')!;
const AAPL = DEFAULT_CATALOGUE.find((product) => product.code === 'AAPL')!;

/** Requests sent at once. */
const BATCH = 24;
/** Short, so that no field refuses them by length first. */
const NUL = '\u0000a';
const LONE_SURROGATE = '\ud800a';
const HUGE = 'x'.repeat(100 * 1024);

// ---------------------------------------------------------------- reading the schemas

type Def = { type: string } & Record<string, any>;
const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** The schema under preprocessing, transforms, defaults and optionality: what the value must be. */
function unwrap(schema: z.ZodType): z.ZodType {
  for (;;) {
    const def = defOf(schema);
    if (def.type === 'pipe')
      // `z.preprocess(f, s)` is a pipe from a transform to s; `s.transform(f)` one from s.
      schema = defOf(def.in).type === 'transform' ? def.out : def.in;
    else if (
      ['optional', 'nullable', 'default', 'prefault', 'catch', 'readonly', 'nonoptional'].includes(
        def.type,
      )
    )
      schema = def.innerType;
    else return schema;
  }
}

const typeOf = (schema: z.ZodType) => defOf(unwrap(schema)).type;

/** Whether a field takes text (a string, or a union with a string such as an amount). */
function isText(schema: z.ZodType): boolean {
  const inner = unwrap(schema);
  const def = defOf(inner);
  if (def.type === 'string') return true;
  return def.type === 'union' && (def.options as z.ZodType[]).some(isText);
}

interface Field {
  path: string[];
  schema: z.ZodType;
}

/** Every field of an object schema, fields of nested objects too. */
function fieldsOf(schema: z.ZodType, prefix: string[] = []): Field[] {
  const def = defOf(unwrap(schema));
  if (def.type !== 'object') return [];
  return Object.entries(def.shape as Record<string, z.ZodType>).flatMap(([key, field]) => [
    { path: [...prefix, key], schema: field },
    ...fieldsOf(field, [...prefix, key]),
  ]);
}

// ---------------------------------------------------------------- plausible values

/** A 1×1 PNG: a payment proof. */
const PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
/** An ERC-20 address of the right form (ETH, currency 5, takes ERC20). */
const ERC20_ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';

/**
 * Values tried first for a field of this name, then the generic ones, then absence; the first the
 * field's schema accepts is taken. Ids are ones no row has, so a call that changes or deletes
 * something by id changes nothing that exists (the seeded admin keeps its roles and password).
 */
const HINTS: Record<string, unknown[]> = {
  id: [undefined, '2147483646'],
  userAccount: ['fuzz@example.com'],
  email: ['fuzz@example.com'],
  regType: ['1'],
  areaCode: ['+86'],
  phone: ['13812345678'],
  userPwd: [GOOD_PASSWORD],
  newPwd: [GOOD_PASSWORD, '123456'],
  password: ['correct horse battery'],
  newPassword: ['correct horse battery'],
  username: ['fuzz-operator'],
  roles: [['support'], 'support'],
  nickName: ['Fuzz'],
  productType: ['2'],
  productCode: ['BTCUSDT'],
  currencyId: ['5'],
  network: ['ERC20'],
  address: [ERC20_ADDRESS],
  depositAddress: [ERC20_ADDRESS],
  bankName: ['Fuzz Bank'],
  accountName: ['Fuzz Tester'],
  accountNumber: ['6222021234567890'],
  payUrl: ['https://pay.example.com/fuzz'],
  minAmount: ['1'],
  maxAmount: ['100'],
  dailyLimit: ['1000'],
  channelType: ['2'],
  quantity: ['0.01'],
  withPwd: ['123456'],
  accountType: ['0'],
  durationSeconds: ['60'],
  payoutRate: ['0.8'],
  lossRate: ['1'],
  minStake: ['1'],
  maxStake: ['100'],
  yzmCode: [undefined],
  inviteCode: [undefined],
  amount: ['100'],
  proofImage: [`data:image/png;base64,${PNG_BASE64}`],
  fromCurrencyId: ['3'],
  toCurrencyId: ['5'],
  feeRate: ['0.01'],
  fixedFee: ['0'],
  lang: ['en'],
  interval: ['1m'],
  // 'web': a customer-service line's kind (its url must then be an https address); 'qa': a
  // content entry's; 'financial': an earn product's (lock mining, paid daily).
  kind: ['contract', 'web', 'qa', 'financial'],
  payout: ['daily'],
  // A message's texts by language (English is required), a message type's name, a content
  // entry's texts; a conversation's state in the service inbox.
  title: [{ en: 'Fuzz' }],
  content: [{ en: '<p>Fuzz</p>' }],
  name: [{ en: 'Fuzz' }],
  texts: [[{ lang: 'en', title: 'Fuzz', body: '<p>Fuzz</p>' }]],
  state: ['new'],
  // A welfare campaign: its window (required there, optional elsewhere) and one task.
  startTime: [undefined, '2026-11-18T15:00:00.000Z'],
  endTime: [undefined, '2026-12-18T15:00:00.000Z'],
  tasks: [[{ kind: 'firstTrade', reward: '1' }]],
  url: ['https://help.example.com/fuzz'],
  switchName: ['thousandsSeparator'],
  side: ['front'],
  v: ['0'.repeat(64)],
  feature: ['withdraw'],
  // The default level: the fuzz leaves withdrawals as they were.
  minLevel: ['-1', -1],
};
const GENERIC: unknown[] = [
  '1',
  '2',
  '0',
  'fuzz',
  'fuzz-request-00000001',
  'fuzz@example.com',
  GOOD_PASSWORD,
  '123456',
  '0.5',
  'en',
];
const GENERIC_JSON: unknown[] = [1, true, ['1']];

/**
 * Valid values for the fields of an object schema: per field the first candidate it accepts; when
 * a check of the whole object names a field (one of two fields required...), that field's next.
 * Query strings carry text only. A record (a bank card) starts from `recordBase`.
 */
function baseFor(
  schema: z.ZodType,
  inQuery: boolean,
  recordBase: Record<string, unknown>,
): Record<string, unknown> {
  const def = defOf(unwrap(schema));
  if (def.type === 'record') return { ...recordBase };
  if (def.type !== 'object') return {};
  const base: Record<string, unknown> = {};
  const choices = new Map<string, unknown[]>();
  for (const [key, field] of Object.entries(def.shape as Record<string, z.ZodType>)) {
    const candidates =
      typeOf(field) === 'object'
        ? [baseFor(field, inQuery, recordBase)]
        : [...(HINTS[key] ?? []), ...GENERIC, ...(inQuery ? [] : GENERIC_JSON), undefined];
    const accepted = candidates.filter(
      (value) =>
        (!inQuery || value === undefined || typeof value === 'string') &&
        field.safeParse(value).success,
    );
    choices.set(key, accepted);
    base[key] = accepted[0];
  }
  for (let round = 0; round < 20; round++) {
    const result = schema.safeParse(base);
    if (result.success) break;
    const key = String(result.error.issues[0]?.path[0]);
    const list = choices.get(key);
    if (!list || list.length < 2) break;
    list.shift();
    base[key] = list[0];
  }
  for (const key of Object.keys(base)) if (base[key] === undefined) delete base[key];
  return base;
}

function withValue(base: Record<string, unknown>, at: string[], value: unknown) {
  const copy = structuredClone(base);
  let target: Record<string, unknown> = copy;
  for (const key of at.slice(0, -1)) {
    if (typeof target[key] !== 'object' || target[key] === null) target[key] = {};
    target = target[key] as Record<string, unknown>;
  }
  target[at.at(-1)!] = value;
  return copy;
}

/** A form body: text values as they are, lists as repeated fields. */
function formOf(values: Record<string, unknown>): string {
  const form = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) {
    for (const item of Array.isArray(value) ? value : [value])
      if (item !== undefined && item !== null && typeof item !== 'object')
        form.append(key, String(item));
  }
  return form.toString();
}

/** A query string built by hand, so lists repeat and NUL stays NUL (`%00`). */
function queryOf(values: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(values))
    for (const item of Array.isArray(value) ? value : [value])
      parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(String(item))}`);
  return parts.length > 0 ? `?${parts.join('&')}` : '';
}

// ---------------------------------------------------------------- the cases

interface Case {
  route: RegisteredRoute;
  label: string;
  request: InjectOptions;
  /**
   * A text case: must be refused (4xx); with `key`, by the schema's own key naming the field (a
   * 100 KB value may be valid, e.g. a proof image, and refused later, or answer 413).
   */
  text?: { field: string; key: boolean };
}

function casesOf(route: RegisteredRoute, recordBase: Record<string, unknown>): Case[] {
  const cases: Case[] = [];
  const method = route.methods[0]!;
  const posts = route.methods.includes('POST');
  const queryBase = route.query ? baseFor(route.query, true, recordBase) : {};
  // A POST route that declares only a query may read its body with it (changeLoginModel does).
  const bodySchema = route.body ?? (posts && route.methods.length > 1 ? route.query : undefined);
  const bodyBase = bodySchema ? baseFor(bodySchema, false, recordBase) : {};
  // A body a form cannot carry (a flag, texts by language: a console call sent as JSON) has no
  // form cases: as a form, its first such field is refused, whatever the hostile one.
  const formCarries =
    bodySchema !== undefined &&
    bodySchema.safeParse(Object.fromEntries(new URLSearchParams(formOf(bodyBase)))).success;
  const get = (query: Record<string, unknown>): InjectOptions => ({
    method,
    url: `${route.url}${queryOf(query)}`,
  });
  const postJson = (payload: unknown): InjectOptions => ({
    method: 'POST',
    url: `${route.url}${queryOf(queryBase)}`,
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify(payload),
  });
  const postForm = (values: Record<string, unknown>): InjectOptions => ({
    method: 'POST',
    url: `${route.url}${queryOf(queryBase)}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: formOf(values),
  });

  const queryFields = route.query ? fieldsOf(route.query) : [];
  for (const { path: at, schema } of queryFields) {
    const field = at.join('.');
    const key = isText(schema);
    cases.push(
      {
        route,
        label: `query ${field}: NUL`,
        request: get(withValue(queryBase, at, NUL)),
        text: { field, key },
      },
      {
        route,
        label: `query ${field}: 100 KB`,
        request: get(withValue(queryBase, at, HUGE)),
        text: { field, key: false },
      },
    );
    // A lone surrogate cannot be percent-encoded: its bytes arrive as the text `%ED%A0%80`.
    cases.push({
      route,
      label: `query ${field}: surrogate bytes`,
      request: get(withValue(queryBase, at, '%ED%A0%80')),
    });
    cases.push({
      route,
      label: `query ${field}: repeated`,
      request: get(withValue(queryBase, at, ['1', NUL])),
    });
  }

  if (posts && bodySchema) {
    const fields = fieldsOf(bodySchema);
    // A record (a bank card) declares no fields: its keys are the base's, and a key itself.
    if (typeOf(bodySchema) === 'record') {
      for (const name of Object.keys(recordBase)) fields.push({ path: [name], schema: bodySchema });
      for (const [label, name] of [
        ['NUL', NUL],
        ['surrogate', LONE_SURROGATE],
      ] as const)
        cases.push({
          route,
          label: `body key: ${label}`,
          request: postJson({ ...bodyBase, [name]: 'x' }),
          text: { field: 'body', key: true },
        });
    }
    for (const { path: at, schema } of fields) {
      const field = at.join('.');
      // A map of texts by language (channelNameLang…): the hostile text goes inside it, as the
      // English text, and is refused naming that entry. A form cannot carry a map: refused all
      // the same, as a value of the wrong kind.
      const map = typeOf(schema) === 'record' && schema !== bodySchema;
      const hostile = (value: string) => (map ? { en: value } : value);
      const textField = map ? `${field}.en` : field;
      const key = map || isText(schema);
      cases.push(
        {
          route,
          label: `body ${field}: NUL`,
          request: postJson(withValue(bodyBase, at, hostile(NUL))),
          text: { field: textField, key },
        },
        ...(formCarries
          ? [
              {
                route,
                label: `body ${field}: NUL (form)`,
                request: postForm(withValue(bodyBase, at, NUL)),
                text: { field, key: key && !map },
              },
            ]
          : []),
        {
          route,
          label: `body ${field}: surrogate`,
          request: postJson(withValue(bodyBase, at, hostile(LONE_SURROGATE))),
          text: { field: textField, key },
        },
        {
          route,
          label: `body ${field}: 100 KB`,
          request: postJson(withValue(bodyBase, at, hostile(HUGE))),
          text: { field, key: false },
        },
      );
      for (const [label, value] of [
        ['number', 12345],
        ['boolean', true],
        ['array', [NUL]],
        ['object', { nested: NUL }],
        ['null', null],
      ] as const)
        cases.push({
          route,
          label: `body ${field}: ${label}`,
          request: postJson(withValue(bodyBase, at, value)),
        });
    }
  }

  // A field no schema declares, and bodies that are not objects.
  cases.push({
    route,
    label: 'undeclared field',
    request: posts
      ? postJson({ ...bodyBase, fuzzUndeclared: NUL })
      : get({ ...queryBase, fuzzUndeclared: NUL }),
  });
  if (posts)
    for (const [label, payload] of [
      ['string body', NUL],
      ['array body', [NUL]],
      ['number body', 7],
    ] as const)
      cases.push({
        route,
        label,
        request: postJson(payload),
        text: bodySchema ? { field: 'body', key: false } : undefined,
      });
  return cases;
}

// ---------------------------------------------------------------- the run

let t: TestApp;
let dir: string;
let feed: ScriptedFeed;
let user: { token: string; email: string };
let adminPassword: string;
let adminToken: string;

beforeAll(async () => {
  const clock = new ManualClock(new Date(NOW));
  feed = new ScriptedFeed();
  t = await createTestApp({
    clock,
    env: { MARKET_FEED: 'simulated', MARKET_SEED: 'fuzz' },
    catalogue: [BTC, AAPL],
    history: { days: 2, minuteDays: 1 },
    feed: () => feed,
  });
  feed.tick('BTCUSDT', '100000.00', NOW);
  dir = await mkdtemp(path.join(os.tmpdir(), 'bourse-fuzz-'));
  const seeded = await adminLogin(testConfig({ DATA_DIR: path.join(dir, 'data') }), t.db, clock);
  adminPassword = seeded.password!;
  adminToken = await operatorReady(t.app, ADMIN_USERNAME, adminPassword);
  user = await registerUser(t.app);
});

afterAll(async () => {
  await t?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Signs in again when a route (sign-out) ended the session. */
async function keepSignedIn(): Promise<void> {
  const me = await call(t.app, 'GET', '/api/userInfo/getUserInfo', { token: user.token });
  if (me.status === 401) {
    const login = await call(t.app, 'POST', '/api/userInfo/login', {
      json: { userAccount: user.email, userPwd: GOOD_PASSWORD },
    });
    user.token = login.body.data.token as string;
  }
  const operator = await call(t.app, 'GET', '/admin-api/auth/me', { token: adminToken });
  if (operator.status === 401)
    adminToken = await operatorReady(t.app, ADMIN_USERNAME, adminPassword);
}

describe(`hostile input on every route (${onPostgres ? 'PostgreSQL' : 'PGlite'})`, () => {
  it('never answers 5xx, and refuses bad text with 400 naming the field', async () => {
    const started = Date.now();
    // A stream (the console's review events) stays open by design: its refusals are tested in
    // console-events.test.ts.
    const routes = registeredRoutes(t.app).filter(
      (route) => !(route.route?.file && route.route.contentType === 'text/event-stream'),
    );
    const urls = routes.map((route) => route.url);
    // Every part of the app registered its routes: the account, market, trading and admin ones.
    for (const url of [
      '/api/userInfo/login',
      '/api/userWalletAddress/addUserWalletAddress',
      '/api/contractPosition/open',
      '/api/bibiTradeOrder/buy',
      '/admin-api/auth/login',
      '/admin-api/audit',
    ])
      expect(urls).toContain(url);
    expect(new Set(urls).size).toBe(urls.length);

    // The bank card (the one record body) starts from the seeded card configuration.
    const properties = await call(t.app, 'GET', '/api/bankPropertyConfig/list');
    const recordBase: Record<string, unknown> = {};
    for (const row of properties.body.rows as {
      propertyName: string;
      inputType: string;
      maxLength: number;
    }[])
      recordBase[row.propertyName] =
        row.inputType === 'digits' ? '6222021234567890' : 'Fuzz'.slice(0, row.maxLength);

    const failures: string[] = [];
    const unparsed: string[] = [];
    let sent = 0;
    for (const route of routes) {
      for (const [kind, schema] of [
        ['query', route.query],
        ['body', route.body],
      ] as const) {
        if (schema && !schema.safeParse(baseFor(schema, kind === 'query', recordBase)).success)
          unparsed.push(`${route.url} ${kind}`);
      }
      const cases = casesOf(route, recordBase);
      for (let i = 0; i < cases.length; i += BATCH) {
        const batch = cases.slice(i, i + BATCH);
        const responses = await Promise.all(
          batch.map(({ request }) => {
            const token = route.url.startsWith('/admin-api/') ? adminToken : user.token;
            return t.app.inject({
              ...request,
              headers: { ...request.headers, authorization: `Bearer ${token}` },
            });
          }),
        );
        sent += batch.length;
        batch.forEach((item, index) => {
          const response = responses[index]!;
          const where = `${route.methods.join('/')} ${route.url} ${item.label}`;
          // Answers are envelopes, but for a file served on success (a payment proof).
          const isJson = String(response.headers['content-type']).startsWith('application/json');
          if (!isJson && response.statusCode >= 400)
            failures.push(`${where}: ${response.statusCode} without an envelope`);
          const body = (isJson ? response.json() : {}) as { msg?: string; params?: unknown[] };
          if (response.statusCode >= 500) {
            failures.push(`${where}: ${response.statusCode} ${body.msg}`);
            return;
          }
          if (!item.text) return;
          if (response.statusCode < 400)
            failures.push(`${where}: ${response.statusCode} ${body.msg}, not refused`);
          else if (
            item.text.key &&
            (body.msg !== 'hint_textInvalidCharacters' || body.params?.[0] !== item.text.field)
          )
            failures.push(`${where}: ${body.msg} ${JSON.stringify(body.params)}`);
        });
      }
      await keepSignedIn();
    }
    const seconds = (Date.now() - started) / 1000;
    console.info(`fuzz: ${routes.length} routes, ${sent} requests in ${seconds.toFixed(1)} s`);
    expect(failures).toEqual([]);
    // Every schema has a valid base, so each hostile field goes with valid others and reaches
    // the handler (a new field the generic values cannot fill needs an entry in HINTS).
    expect(unparsed).toEqual([]);
    // Nothing failed on the server's side either.
    expect(t.logs.filter((line) => line.level >= 50).map((line) => line.msg)).toEqual([]);
    expect(sent).toBeGreaterThan(1000);
  });
});
