/** Maps every failure to the envelope with a matching HTTP status; faults never leak internals. */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../lib/errors';
import { translate } from '../lib/i18n';
import { requestLanguage } from './language';

function send(request: FastifyRequest, reply: FastifyReply, error: AppError) {
  const lang = requestLanguage(request);
  const body: Record<string, unknown> = { code: error.code, msg: error.key };
  if (error.params.length > 0) body.params = error.params;
  body.text = translate(lang, error.key, error.params);
  return reply.status(error.status).send(body);
}

/** Fastify's own client errors, by code, as translation keys. */
const FASTIFY_ERRORS: Record<string, [string, AppError['status']]> = {
  FST_ERR_CTP_BODY_TOO_LARGE: ['hint_bodyTooLarge', 413],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: ['hint_unsupportedMediaType', 415],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: ['hint_badRequest', 400],
  FST_ERR_CTP_EMPTY_JSON_BODY: ['hint_badRequest', 400],
  FST_ERR_CTP_INVALID_JSON_BODY: ['hint_badRequest', 400],
  FST_ERR_BAD_URL: ['hint_badRequest', 400],
  FST_ERR_ASYNC_CONSTRAINT: ['hint_badRequest', 400],
};

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError | Error, request, reply) => {
    if (error instanceof AppError) return send(request, reply, error);
    const code = (error as FastifyError).code;
    const known = code ? FASTIFY_ERRORS[code] : undefined;
    if (known) return send(request, reply, new AppError(known[0], known[1]));
    const status = (error as FastifyError).statusCode;
    if (error instanceof SyntaxError || (status !== undefined && status >= 400 && status < 500)) {
      // A malformed request the parsers refused (form body, JSON, headers).
      request.log.info({ err: error }, 'malformed request');
      return send(request, reply, new AppError('hint_badRequest', 400));
    }
    request.log.error({ err: error }, 'request failed');
    const lang = requestLanguage(request);
    return reply
      .status(500)
      .send({ code: 500, msg: 'hint_systemError', text: translate(lang, 'hint_systemError') });
  });

  app.setNotFoundHandler((request, reply) =>
    send(request, reply, new AppError('hint_notFound', 404)),
  );
}
