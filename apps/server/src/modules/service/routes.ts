/**
 * /api/service (serviceApi) and /admin-api/service (consoleServiceApi): the chat of the app and of
 * the console's inbox. Sends are limited per address beside the general budgets: a person types
 * far fewer than one message a second, a script would not.
 */
import { consoleServiceApi as desk, serviceApi as routes } from '@bourse/shared';
import { alreadyDone, ok, pageOf } from '../../http/envelope';
import type { Operator, Router } from '../../http/router';
import { AppError } from '../../lib/errors';
import { sendProofImage, type AuditWriter } from '../wallet';
import type { Caller, ServiceDesk } from './service';

const MINUTE_MS = 60_000;
/** One image of up to 2 MiB as base64 (4/3), with the rest of the body. */
const SEND_BODY_LIMIT = 3 * 1024 * 1024 + 64 * 1024;
const SEND_LIMIT = { rateLimit: { max: 60, timeWindowMs: MINUTE_MS }, bodyLimit: SEND_BODY_LIMIT };
const TYPING_LIMIT = { rateLimit: { max: 120, timeWindowMs: MINUTE_MS } };
/** New visitor identities per address. */
const VISITOR_LIMIT = { rateLimit: { max: 20, timeWindowMs: MINUTE_MS } };

export function serviceRoutes(router: Router, service: ServiceDesk): void {
  const caller = (
    actor: { userId: number } | null,
    input: { visitorToken?: string },
    lang: Caller['language'],
  ): Caller => ({
    userId: actor?.userId ?? null,
    visitorToken: input.visitorToken,
    language: lang,
  });

  router.handle(routes.visitor, async () => ok(await service.newVisitor()), VISITOR_LIMIT);

  router.handle(routes.messages, async ({ actor, query, lang }) =>
    pageOf(await service.messages(caller(actor, query, lang), query)),
  );

  router.handle(
    routes.send,
    async ({ actor, body, lang }) => ok(await service.send(caller(actor, body, lang), body)),
    SEND_LIMIT,
  );

  router.handle(routes.read, async ({ actor, body, lang }) =>
    ok(await service.read(caller(actor, body, lang), body.upToId)),
  );

  router.handle(
    routes.typing,
    async ({ actor, body, lang }) => {
      await service.typing(caller(actor, body, lang));
      return ok();
    },
    TYPING_LIMIT,
  );

  router.handle(routes.image, async ({ actor, query, lang, reply }) => {
    const image = await service.ownImage(caller(actor, query, lang), query.id);
    if (!image) throw new AppError('hint_notFound', 404, ['id']);
    return sendProofImage(reply, image);
  });

  router.handle(routes.lines, async () => {
    const rows = await service.lines();
    return pageOf({ rows, total: rows.length });
  });
}

/** The console's inbox, on the router whose operator guard is the console's. */
export function serviceConsoleRoutes<O extends Operator>(
  router: Router<O>,
  service: ServiceDesk,
  audit: (operator: O) => AuditWriter,
): void {
  router.handle(desk.conversations, async ({ operator, query }) =>
    pageOf(await service.conversations(query, operator)),
  );

  router.handle(desk.conversation, async ({ query }) => ok(await service.conversation(query.id)));

  router.handle(desk.messages, async ({ query }) =>
    pageOf(await service.deskMessages(query.id, query.beforeId, query.pageSize)),
  );

  router.handle(desk.send, async ({ operator, body }) => ok(await service.reply(operator, body)), {
    bodyLimit: SEND_BODY_LIMIT,
  });

  router.handle(desk.read, async ({ body }) =>
    ok(await service.deskRead(body.conversationId, body.upToId)),
  );

  router.handle(
    desk.typing,
    async ({ body }) => {
      await service.deskTyping(body.conversationId);
      return ok();
    },
    TYPING_LIMIT,
  );

  router.handle(desk.image, async ({ query, reply }) => {
    const image = await service.deskImage(query.id);
    if (!image) throw new AppError('hint_notFound', 404, ['id']);
    return sendProofImage(reply, image);
  });

  const outcome = (result: { conversation: unknown; changed: boolean }) =>
    result.changed ? ok(result.conversation) : alreadyDone(result.conversation);

  router.handle(
    desk.take,
    async ({ operator, body }) =>
      outcome(
        await service.assign(body.id, { operatorId: operator.operatorId }, audit(operator)),
      ) as never,
  );
  router.handle(
    desk.assign,
    async ({ operator, body }) =>
      outcome(
        await service.assign(body.id, { operatorId: body.operatorId }, audit(operator)),
      ) as never,
  );
  router.handle(
    desk.release,
    async ({ operator, body }) =>
      outcome(await service.assign(body.id, { operatorId: null }, audit(operator))) as never,
  );
  router.handle(
    desk.close,
    async ({ operator, body }) =>
      outcome(await service.assign(body.id, { close: true }, audit(operator))) as never,
  );

  router.handle(desk.agents, async () => {
    const rows = await service.agents();
    return pageOf({ rows, total: rows.length });
  });

  router.handle(desk.cannedReplies, async ({ query }) =>
    pageOf(await service.cannedReplies(query.pageNum, query.pageSize)),
  );
  router.handle(desk.saveCannedReply, async ({ operator, body }) =>
    ok(await service.saveCannedReply(body, audit(operator))),
  );
  router.handle(desk.deleteCannedReply, async ({ operator, body }) =>
    (await service.deleteCannedReply(body.id, audit(operator))) ? ok() : alreadyDone(),
  );

  router.handle(desk.lines, async () => {
    const rows = await service.allLines();
    return pageOf({ rows, total: rows.length });
  });
  router.handle(desk.saveLine, async ({ operator, body }) =>
    ok(await service.saveLine(body, audit(operator))),
  );
  router.handle(desk.deleteLine, async ({ operator, body }) =>
    (await service.deleteLine(body.id, audit(operator))) ? ok() : alreadyDone(),
  );
}
