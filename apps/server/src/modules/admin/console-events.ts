/**
 * The review queues as they change, pushed to operators' consoles: a request submitted, or leaving
 * review (approved, paid, rejected, taken back by its owner), is published once by the instance
 * that committed it, through Redis when there are several instances, and every console watching
 * that queue reads it again at once, so a request another operator decided leaves everyone's queue
 * within a second and a new one appears as it arrives.
 *
 * Consoles listen on `GET /admin-api/review/events`, a server-sent event stream (text/event-stream):
 * `event: ready` with the queues the operator's roles may read, then `event: queue` with
 * `{ queue, id }` for each change of one of them. Every `checkMs` the operator's session is read
 * again: a stream whose session ended (signed out, revoked, password changed, operator disabled)
 * is closed, and a role change applies to what it is sent next. A comment line in between keeps
 * proxies from closing an idle stream.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  consoleIdentityApi,
  consoleServiceApi,
  operatorsApi,
  type OperatorRole,
} from '@bourse/shared';
import type { QueueEvent, QueueEventBus } from '../../market/cluster';
import { AppError } from '../../lib/errors';

export type { QueueEvent } from '../../market/cluster';

/** The queues and the roles that read each: those of its list call. */
export const QUEUE_ROLES: Record<string, readonly OperatorRole[]> = {
  recharges: operatorsApi.recharges.roles,
  withdrawals: operatorsApi.withdrawals.roles,
  identity: consoleIdentityApi.identityRecords.roles,
  // Customer-service conversations (id: the conversation; data: what happened in it).
  service: consoleServiceApi.conversations.roles,
};

/** Streams one operator may hold open at once (a console tab each). */
const MAX_STREAMS_PER_OPERATOR = 10;

/** The queues an operator with `roles` may read. */
export function queuesOf(roles: readonly OperatorRole[]): string[] {
  return Object.entries(QUEUE_ROLES)
    .filter(([, allowed]) => roles.some((role) => allowed.includes(role)))
    .map(([queue]) => queue);
}

interface Stream {
  operatorId: number;
  queues: Set<string>;
  write(frame: string): void;
  end(): void;
}

export class ConsoleEvents {
  private readonly streams = new Set<Stream>();

  constructor(private readonly bus?: QueueEventBus) {}

  /** Hears the other instances' events (with a bus). */
  async start(): Promise<void> {
    await this.bus?.subscribeQueueEvents((event) => this.deliver(event));
  }

  /** After the commit that changed a queue: every console watching it, on every instance. */
  publish(event: QueueEvent): void {
    if (this.bus) this.bus.publishQueueEvent(event);
    else this.deliver(event);
  }

  /** Streams open on this instance. */
  get streamCount(): number {
    return this.streams.size;
  }

  private deliver(event: QueueEvent): void {
    const { queue, id, data } = event;
    const frame = `event: queue\ndata: ${JSON.stringify(data === undefined ? { queue, id } : { queue, id, data })}\n\n`;
    for (const stream of this.streams) if (stream.queues.has(event.queue)) stream.write(frame);
  }

  /**
   * Answers the request with the operator's stream: open until the client leaves, the session
   * ends (read again every `checkMs` through `recheck`, which throws a 401 AppError then) or the
   * server closes.
   */
  open(
    request: FastifyRequest,
    reply: FastifyReply,
    operator: { operatorId: number; roles: readonly OperatorRole[] },
    recheck: () => Promise<{ roles: readonly OperatorRole[] }>,
    checkMs: number,
  ): FastifyReply {
    const open = [...this.streams].filter((s) => s.operatorId === operator.operatorId).length;
    if (open >= MAX_STREAMS_PER_OPERATOR) throw new AppError('hint_tooManyRequests', 429, [60]);
    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store, no-transform',
      'x-content-type-options': 'nosniff',
      // Nginx and the like pass each event on as it comes.
      'x-accel-buffering': 'no',
      connection: 'keep-alive',
    });
    let ended = false;
    const stream: Stream = {
      operatorId: operator.operatorId,
      queues: new Set(queuesOf(operator.roles)),
      write: (frame) => {
        if (!ended) raw.write(frame);
      },
      end: () => {
        if (ended) return;
        ended = true;
        clearInterval(timer);
        this.streams.delete(stream);
        raw.end();
      },
    };
    const timer = setInterval(() => {
      recheck().then(
        ({ roles }) => {
          stream.queues = new Set(queuesOf(roles));
          stream.write(': live\n\n');
        },
        () => stream.end(),
      );
    }, checkMs);
    timer.unref();
    request.raw.on('close', () => stream.end());
    raw.on('error', () => stream.end());
    this.streams.add(stream);
    // The client reconnects after 3 s when the stream breaks.
    stream.write(
      `retry: 3000\nevent: ready\ndata: ${JSON.stringify({ queues: [...stream.queues] })}\n\n`,
    );
    return reply;
  }

  /** Ends every stream (the server is closing). */
  close(): void {
    for (const stream of [...this.streams]) stream.end();
  }
}
