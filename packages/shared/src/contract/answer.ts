/**
 * The schema of each route's answer: the envelope `{ code, msg, data? }` or `{ code, msg, rows,
 * total }` (PRODUCT section 3) around the route's `data` or `rows`. The server serializes answers
 * through it and the OpenAPI reference shows it; the web app never needs it at run time.
 */
import { z } from 'zod';
import type { Route } from './route';

const envelopeFields = {
  code: z
    .number()
    .int()
    .describe(
      '200 done; 401 signed out; 500 refused (see msg); 209 the same request is under way.',
    ),
  msg: z.string().describe('A hint key: hint_success, or the reason of a refusal.'),
  params: z.array(z.unknown()).optional().describe('Values for the placeholders of msg.'),
  text: z.string().optional().describe("msg in the request's language."),
};

/** The schema of a route's successful answer (HTTP 2xx): what the server serializes. */
export function answerSchema(route: Route): z.ZodObject {
  if (route.rows) {
    return z.object({
      ...envelopeFields,
      rows: z.array(route.rows),
      total: z.number().int().nonnegative(),
    });
  }
  const base = z.object({
    ...envelopeFields,
    ...(route.data ? { data: route.data.optional() } : {}),
  });
  return route.extra ? base.extend(route.extra.shape) : base;
}
