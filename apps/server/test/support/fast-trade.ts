/** Reading fast trades in tests: an order's detail, and waiting for its settlement. */
import type { FastifyInstance } from 'fastify';
import { call } from '../helpers';

export async function fastTradeDetail(app: FastifyInstance, token: string, id: number) {
  return (
    await call(app, 'GET', '/api/fastTradeOrder/detail', { token, query: { id: String(id) } })
  ).body.data;
}

/** Waits until the order left the open state (settlement runs on the tick, asynchronously). */
export async function settledFastTrade(app: FastifyInstance, token: string, id: number) {
  for (let i = 0; i < 500; i++) {
    const data = await fastTradeDetail(app, token, id);
    if (data.status !== 0) return data;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`order ${id} was not settled`);
}
