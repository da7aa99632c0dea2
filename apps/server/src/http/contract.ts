/**
 * Fastify's schema support, fed with the zod schemas of the route table (@bourse/shared
 * contract): the validator parses a call's query and body into what the handler receives (a
 * refusal is the translated key naming the field, see validation.ts), the serializer writes the
 * answer through the route's answer schema, so only what the table declares leaves the server.
 *
 * `strict` (tests and browser tests): an answer that does not match its schema, or carries a field
 * the schema does not declare, fails the call loudly, so the table cannot drift from the handlers.
 * `strip` (default): undeclared fields are left out silently; a mismatch is still a 500, logged.
 */
import type { FastifySchemaCompiler } from 'fastify';
import type { FastifySerializerCompiler } from 'fastify/types/schema';
import type { z } from 'zod';
import { AssertionError } from '../lib/errors';
import { parseInput } from './validation';

export type ContractCheck = 'strict' | 'strip';

/** Parses a query or body with the route's zod schema (Fastify calls it before the handler). */
export const inputValidator: FastifySchemaCompiler<z.ZodType> =
  ({ schema }) =>
  (data: unknown) => {
    try {
      return { value: parseInput(schema, data) };
    } catch (error) {
      return { error: error as Error };
    }
  };

/** The first path of `sent` that `kept` lost: a field the schema does not declare. */
export function undeclaredField(sent: unknown, kept: unknown, path = ''): string | undefined {
  if (Array.isArray(sent)) {
    if (!Array.isArray(kept)) return path || '(root)';
    for (let i = 0; i < sent.length; i++) {
      const found = undeclaredField(sent[i], kept[i], `${path}[${i}]`);
      if (found) return found;
    }
    return undefined;
  }
  if (sent === null || typeof sent !== 'object' || sent instanceof Date) return undefined;
  if (kept === null || typeof kept !== 'object') return path || '(root)';
  for (const [key, value] of Object.entries(sent)) {
    if (value === undefined) continue;
    const at = path ? `${path}.${key}` : key;
    if (!(key in kept)) return at;
    const found = undeclaredField(value, (kept as Record<string, unknown>)[key], at);
    if (found) return found;
  }
  return undefined;
}

/** Writes an answer through its schema (see the module's comment for the two checks). */
export function answerSerializer(check: ContractCheck): FastifySerializerCompiler<z.ZodType> {
  return ({ schema, method, url }) =>
    (data: unknown) => {
      const result = schema.safeEncode(data);
      if (!result.success) {
        const [issue] = result.error.issues;
        throw new AssertionError(
          `answer of ${method} ${url} breaks its schema at ${issue?.path.join('.') || '(root)'}: ${issue?.message}`,
        );
      }
      if (check === 'strict') {
        const extra = undeclaredField(data, result.data);
        if (extra)
          throw new AssertionError(`answer of ${method} ${url} has an undeclared field: ${extra}`);
      }
      return JSON.stringify(result.data);
    };
}
