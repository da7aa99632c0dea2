/**
 * The body of a request exactly as it arrived, for the calls whose signature covers it (API keys:
 * Bourse's own signing and the Binance-compatible one). The parsers (JSON, forms) stay as they
 * are: a preParsing hook passes the body through a stream that keeps a copy of each chunk while
 * the parser reads it, so the bytes verified are the bytes parsed. Only requests that carry the
 * given header are copied; the copy is bounded by the route's body limit, which the parser
 * enforces on the same chunks.
 */
import { pipeline, Transform, type Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';

const copies = new WeakMap<FastifyRequest, Buffer[]>();

/**
 * A preParsing hook that keeps the raw body of requests carrying `header` (lower case), for
 * `rawBodyOf`.
 */
export function keepRawBody(header: string) {
  return async (
    request: FastifyRequest,
    _reply: FastifyReply,
    payload: Readable,
  ): Promise<Readable> => {
    if (request.headers[header] === undefined) return payload;
    const chunks: Buffer[] = [];
    copies.set(request, chunks);
    const tap = new Transform({
      transform(chunk: Buffer | string, _encoding, done) {
        chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
        done(null, chunk);
      },
    });
    // A client that goes away mid-body fails the tap, and so the parser reading it.
    pipeline(payload, tap, () => undefined);
    return tap;
  };
}

/**
 * The raw body of a request `keepRawBody` copied (empty when it had none); undefined when it did
 * not copy this request.
 */
export function rawBodyOf(request: FastifyRequest): Buffer | undefined {
  const chunks = copies.get(request);
  if (!chunks) return undefined;
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
}
