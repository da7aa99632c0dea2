/**
 * Router.handle on a small app of its own: a route of the table is guarded before its input is
 * checked (401 before 400, 403 for an operator without the role), its input is parsed by Fastify
 * with the route's zod schema into translated field errors, and its answer is written through the
 * route's answer schema: undeclared fields left out (`strip`) or failing the call (`strict`), a
 * value of the wrong type always a logged 500 that leaks nothing.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import formBody from '@fastify/formbody';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { intField, route } from '@bourse/shared';
import { RequestBudgets } from '../src/http/budgets';
import { undeclaredField, type ContractCheck } from '../src/http/contract';
import { ok, page } from '../src/http/envelope';
import { registerErrorHandling } from '../src/http/errors';
import { Router, type Operator, type Session } from '../src/http/router';
import { AppError } from '../src/lib/errors';

const item = z.object({ id: z.number().int(), name: z.string() });
const api = {
  item: route({
    method: 'GET',
    path: '/api/test/item',
    auth: 'user',
    summary: 'An item.',
    query: z.object({ id: intField(1, 100) }),
    data: item,
  }),
  items: route({
    method: 'GET',
    path: '/api/test/items',
    auth: 'public',
    summary: 'Items.',
    rows: item,
  }),
  rename: route({
    method: 'POST',
    path: '/api/test/rename',
    auth: 'user',
    summary: 'Renames.',
    body: z.object({ id: intField(1, 100), name: z.string().min(2).max(8) }),
    data: item,
  }),
  review: route({
    method: 'POST',
    path: '/admin-api/test/review',
    auth: 'operator',
    roles: ['finance'],
    summary: 'Reviews.',
    body: z.object({ id: intField(1, 100) }),
  }),
};

/** What the handlers answer: set per test. */
let answer: unknown;
let app: FastifyInstance | undefined;

async function build(check: ContractCheck): Promise<FastifyInstance> {
  const instance = Fastify({ logger: false });
  registerErrorHandling(instance);
  await instance.register(formBody);
  await instance.register(rateLimit, { global: false });
  const budgets = new RequestBudgets(instance, { max: 1000, timeWindowMs: 60_000 });
  const sessions = {
    async resolve(token: string): Promise<Session> {
      if (token !== 'user') throw new AppError('hint_unauthorized', 401);
      return { id: 1, userId: 7, accountType: 0 };
    },
  };
  const router = new Router(instance, sessions, budgets, check);
  router.useOperators({
    async resolve(token: string, ip: string): Promise<Operator> {
      if (!token.startsWith('op-')) throw new AppError('hint_unauthorized', 401);
      return { sessionId: 1, operatorId: 2, username: 'op', roles: [token.slice(3)] as never, ip };
    },
  });
  router.handle(api.item, async ({ actor, query }) => {
    expect(actor.userId).toBe(7);
    expect(query.id).toBeTypeOf('number');
    return ok(answer as z.input<typeof item>);
  });
  router.handle(api.items, async () => page(answer as z.input<typeof item>[], 1));
  router.handle(api.rename, async ({ body }) => ok({ id: body.id, name: body.name }));
  router.handle(api.review, async ({ operator, body }) => {
    expect(operator.roles).toContain('finance');
    expect(body.id).toBeTypeOf('number');
    return ok();
  });
  app = instance;
  return instance;
}

afterEach(async () => {
  await app?.close();
  app = undefined;
});

describe('a route of the table', () => {
  it('checks who calls before what they send', async () => {
    const server = await build('strict');
    const signedOut = await server.inject({ url: '/api/test/item?id=abc' });
    expect(signedOut.statusCode).toBe(401);
    expect(signedOut.json().msg).toBe('hint_unauthorized');
    const bad = await server.inject({
      url: '/api/test/item?id=abc',
      headers: { authorization: 'Bearer user' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 500, msg: 'hint_paramInvalid', params: ['id'] });
  });

  it('parses a form body into typed values and names the field it refuses', async () => {
    const server = await build('strict');
    const headers = { authorization: 'Bearer user' };
    const renamed = await server.inject({
      method: 'POST',
      url: '/api/test/rename',
      headers,
      payload: { id: '5', name: 'abc' },
    });
    expect(renamed.json()).toEqual({
      code: 200,
      msg: 'hint_success',
      data: { id: 5, name: 'abc' },
    });
    const tooLong = await server.inject({
      method: 'POST',
      url: '/api/test/rename',
      headers,
      payload: { id: '5', name: 'abcdefghij' },
    });
    expect(tooLong.json()).toMatchObject({ msg: 'hint_paramTooLong', params: ['name', 8] });
    const missing = await server.inject({ method: 'POST', url: '/api/test/rename', headers });
    expect(missing.json()).toMatchObject({ msg: 'hint_paramRequired', params: ['id'] });
  });

  it('lets only operators of the named roles in', async () => {
    const server = await build('strict');
    const call = (token?: string) =>
      server.inject({
        method: 'POST',
        url: '/admin-api/test/review',
        headers: token ? { authorization: `Bearer ${token}` } : {},
        payload: { id: 'x' },
      });
    expect((await call()).statusCode).toBe(401);
    expect((await call('user')).statusCode).toBe(401);
    expect((await call('op-support')).statusCode).toBe(403);
    expect((await call('op-finance')).json()).toMatchObject({ msg: 'hint_paramInvalid' });
    const done = await server.inject({
      method: 'POST',
      url: '/admin-api/test/review',
      headers: { authorization: 'Bearer op-finance' },
      payload: { id: '3' },
    });
    expect(done.json()).toEqual({ code: 200, msg: 'hint_success' });
  });

  it('leaves out a field the route does not declare, or fails the call when strict', async () => {
    answer = { id: 1, name: 'a', secret: 'hash' };
    const loose = await build('strip');
    const kept = await loose.inject({
      url: '/api/test/item?id=1',
      headers: { authorization: 'Bearer user' },
    });
    expect(kept.json()).toEqual({ code: 200, msg: 'hint_success', data: { id: 1, name: 'a' } });
    await loose.close();

    const strict = await build('strict');
    const failed = await strict.inject({
      url: '/api/test/item?id=1',
      headers: { authorization: 'Bearer user' },
    });
    expect(failed.statusCode).toBe(500);
    expect(failed.json().msg).toBe('hint_systemError');
    expect(failed.body).not.toContain('hash');
  });

  it('never sends an answer of the wrong shape, even when not strict', async () => {
    answer = [{ id: '1', name: 'a' }];
    const server = await build('strip');
    const response = await server.inject({ url: '/api/test/items' });
    expect(response.statusCode).toBe(500);
    expect(response.json().msg).toBe('hint_systemError');
    answer = [{ id: 1, name: 'a' }];
    expect((await server.inject({ url: '/api/test/items' })).json()).toEqual({
      code: 200,
      msg: 'hint_success',
      rows: [{ id: 1, name: 'a' }],
      total: 1,
    });
  });
});

describe('undeclaredField', () => {
  it('finds the first field the schema left out, at any depth', () => {
    expect(undeclaredField({ a: 1 }, { a: 1 })).toBeUndefined();
    expect(undeclaredField({ a: 1, b: undefined }, { a: 1 })).toBeUndefined();
    expect(undeclaredField({ a: 1, b: 2 }, { a: 1 })).toBe('b');
    expect(
      undeclaredField({ rows: [{ a: 1 }, { a: 1, c: 3 }] }, { rows: [{ a: 1 }, { a: 1 }] }),
    ).toBe('rows[1].c');
    expect(undeclaredField({ d: { e: { f: 1 } } }, { d: { e: {} } })).toBe('d.e.f');
    expect(undeclaredField({ d: { x: 1 } }, { d: 'text' })).toBe('d');
  });
});
