import type { FastifyRequest } from 'fastify';
import { resolveLanguage, type LanguageKey } from '@bourse/shared';

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The language of a request: `LanguageId` (the spec's numeric ids), then `Accept-Language`. */
export function requestLanguage(request: FastifyRequest): LanguageKey {
  return resolveLanguage(header(request, 'languageid'), header(request, 'accept-language'));
}
