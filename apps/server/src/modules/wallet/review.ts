/**
 * Requests a user makes and an operator decides: deposits and withdrawals today, identity checks,
 * loans and new shares next. `ReviewFlow` is their one review flow: the request found by id or by
 * its request id (a repeated request answered with its first result, another request under the
 * same id refused), listed for the console or for its owner, and decided once. A decision runs in
 * one transaction: the request row locked, its money moved (what the decision's `apply` does
 * through the ledger), its status and the decision's columns written, and, for an operator's
 * decision, the audit entry the caller writes. Asking again for the state a request already has
 * changes nothing ("hint_48"); any other closed state is refused.
 *
 * `WalletReview` is what the operator console may do with deposits and withdrawals. It is the only
 * way operator actions move money (PRODUCT section 1): approving a deposit credits it, paying a
 * withdrawal captures its frozen funds, rejecting releases them.
 */
import type { LanguageKey, PageQuery, RechargeRecord, WithdrawRecord } from '@bourse/shared';
import type { Database, Queryable } from '../../db/database';
import { runOnce, type RequestKey } from '../../db/user-lock';
import type { Clock } from '../../lib/clock';
import { AppError, assert } from '../../lib/errors';
import type { RechargeChannelInput, WithdrawChannelInput } from './channels-admin';
import { fingerprint, orderNumber } from './common';
import {
  findRequest,
  findRequestByRequestId,
  insertRequest,
  nextId,
  pageRequests,
  writeDecision,
  type ReviewRow,
  type ReviewTable,
} from './repo';

export interface ReviewActor {
  operatorId: number;
}

/** Writes the audit entry of an action inside the action's own transaction. */
export type AuditWriter = (
  tx: Queryable,
  change: { action: string; targetType: string; targetId: string; before: unknown; after: unknown },
) => Promise<void>;

export interface ReviewListQuery {
  status?: number;
  userId?: number;
  pageNum: number;
  pageSize: number;
}

export interface ReviewedRecharge extends RechargeRecord {
  userId: number;
  userAccount: string;
}

/** Operators see the destination unmasked: they pay it. */
export interface ReviewedWithdraw extends WithdrawRecord {
  userId: number;
  userAccount: string;
}

export interface ReviewOutcome<T> {
  record: T;
  /** False when the request was already in the asked state: nothing moved ("hint_48"). */
  changed: boolean;
}

export interface WalletReview {
  /** A page of the deposit channels, hidden ones included, as stored. */
  listRechargeChannels(page: PageQuery): Promise<{ rows: unknown[]; total: number }>;
  /** A page of the withdrawal channels, hidden ones included, with the terms in force and to come. */
  listWithdrawChannels(page: PageQuery): Promise<{ rows: unknown[]; total: number }>;
  /** Creates (no id) or updates a deposit channel; audited. */
  saveRechargeChannel(input: RechargeChannelInput, audit: AuditWriter): Promise<unknown>;
  /**
   * Creates or updates a withdrawal channel; audited. What makes withdrawing easier applies at
   * once, what makes it harder is announced and applies `noticeHours` later (PRODUCT 1.9).
   */
  saveWithdrawChannel(
    input: WithdrawChannelInput,
    audit: AuditWriter,
    noticeHours: number,
  ): Promise<unknown>;
  listRecharges(query: ReviewListQuery): Promise<{ rows: ReviewedRecharge[]; total: number }>;
  rechargeProof(id: number): Promise<{ mime: string; data: Uint8Array } | null>;
  /** Credits the deposit. Throws AppError `hint_reviewClosed` (409) if it was rejected. */
  approveRecharge(
    id: number,
    actor: ReviewActor,
    audit: AuditWriter,
  ): Promise<ReviewOutcome<ReviewedRecharge>>;
  /** Throws AppError `hint_reviewClosed` (409) if it was approved. */
  rejectRecharge(
    id: number,
    actor: ReviewActor,
    reason: string,
    audit: AuditWriter,
  ): Promise<ReviewOutcome<ReviewedRecharge>>;
  listWithdrawals(query: ReviewListQuery): Promise<{ rows: ReviewedWithdraw[]; total: number }>;
  /** Marks it paid: the frozen amount and fee leave the user's account. */
  payWithdrawal(
    id: number,
    actor: ReviewActor,
    audit: AuditWriter,
  ): Promise<ReviewOutcome<ReviewedWithdraw>>;
  /** Releases the frozen funds at once, with the reason the user reads. */
  rejectWithdrawal(
    id: number,
    actor: ReviewActor,
    reason: string,
    audit: AuditWriter,
  ): Promise<ReviewOutcome<ReviewedWithdraw>>;
}

// ---------------------------------------------------------------- the review flow

/** A request as the operator sees it: with its owner. */
export interface ReviewedRequest {
  id: number;
  userId: number;
  userAccount: string;
}

/** A request as its owner sees it. */
export type OwnerView<Shown extends ReviewedRequest> = Omit<Shown, 'userId' | 'userAccount'>;

/** Who a request is shown to: operators see it whole, its owner without the owner's fields. */
export type Audience = 'operator' | 'owner';

/**
 * A decision on a request under review: an operator's (audited as `action`, with the reason the
 * user reads) or its owner's (taking it back).
 */
export type ReviewDecision<Row extends ReviewRow> = (
  { by: 'operator'; action: string } | { by: 'owner' }
) & {
  /** The status the decision moves a request under review to. */
  status: number;
  /**
   * What the decision does with the money, in the decision's transaction before the new status is
   * written; answers further columns of the request to write (the ledger entry of a credit).
   */
  apply?(tx: Queryable, row: Row): Promise<Record<string, unknown> | void>;
  /**
   * In the decision's transaction, once its status is written (what follows from it): the row as
   * written (its new status and the decision's columns, the reason of a rejection among them).
   */
  written?(tx: Queryable, row: Row): Promise<void>;
  /** After the commit, when the request changed (the user's screens told of their balances). */
  after?(row: Row): void;
};

/** A request being stored (ReviewFlow.submit): its id, known before its row is written. */
export interface NewRequest {
  id: number;
  /** Writes the request's row: `columns` are its own, the flow adds the id, owner and request id. */
  insert(columns: Record<string, unknown>): Promise<void>;
}

export interface ReviewFlowConfig<
  Row extends ReviewRow,
  Shown extends ReviewedRequest,
  Name extends string,
> {
  db: Database;
  clock: Clock;
  /** The requests' table and how it is read (the wallet's: REVIEW_TABLES in repo.ts). */
  table: ReviewTable;
  /** The first letter of the requests' order numbers (orderNumber). */
  orderPrefix: string;
  /** Under review: the only status a decision moves a request from. */
  reviewing: number;
  /** The audit entries' target type. */
  targetType: string;
  /** Refusal of an unknown request, or of another user's (404). */
  notFoundKey: string;
  /** Refusal of a decision on a request decided otherwise (409). */
  closedKey: string;
  /**
   * How rows are shown to an audience, in a reader's language (operator-entered texts such as the
   * channel's name). It reads what it needs (currencies, switches) before it answers the function
   * that shows them, so a decision prepares it before its transaction.
   */
  view(audience: Audience, lang: LanguageKey): Promise<(row: Row) => Shown>;
  decisions: Record<Name, ReviewDecision<Row>>;
  /** After a commit that added a request or moved one out of review (the console's queues). */
  changed?: (id: number) => void;
}

function ownerView<Shown extends ReviewedRequest>({
  userId: _,
  userAccount: __,
  ...record
}: Shown): OwnerView<Shown> {
  return record;
}

export class ReviewFlow<Row extends ReviewRow, Shown extends ReviewedRequest, Name extends string> {
  constructor(private readonly config: ReviewFlowConfig<Row, Shown, Name>) {}

  private async showTo(audience: Audience, row: Row, lang: LanguageKey): Promise<Shown> {
    return (await this.config.view(audience, lang))(row);
  }

  /**
   * A user's request as its fingerprint (`fields`, what it asks) keys it, with the first answer
   * to its request id if there is one. The id used for another request is refused.
   */
  async requested(
    userId: number,
    requestId: string,
    fields: Record<string, unknown>,
    lang: LanguageKey = 'en',
  ): Promise<{ key: RequestKey; earlier: OwnerView<Shown> | null }> {
    const key = { userId, requestId, fingerprint: fingerprint(fields) };
    return { key, earlier: await this.byRequestId(key, lang) };
  }

  private async byRequestId(key: RequestKey, lang: LanguageKey): Promise<OwnerView<Shown> | null> {
    const row = await findRequestByRequestId<Row>(
      this.config.db,
      this.config.table,
      key.userId,
      key.requestId,
    );
    if (!row) return null;
    if (row.request_hash !== key.fingerprint) throw new AppError('hint_requestIdReused', 409);
    return ownerView(await this.showTo('owner', row, lang));
  }

  /**
   * Stores a new request once per request id, under the user's lock (runOnce). `write` checks what
   * needs the lock, freezes what it must and calls `request.insert` with the request's own columns;
   * the row gets its id, order number (from `now`), owner, request id and fingerprint. Answers the
   * request as stored: this one, or the same id's first.
   */
  async submit(
    key: RequestKey,
    now: Date,
    write: (tx: Queryable, request: NewRequest) => Promise<void>,
    lang: LanguageKey = 'en',
  ): Promise<OwnerView<Shown>> {
    const { db, table, orderPrefix } = this.config;
    await runOnce(
      db,
      table.name,
      key,
      async (tx) => {
        const id = await nextId(tx, table.name);
        await write(tx, {
          id,
          insert: (columns) =>
            insertRequest(tx, table, {
              id,
              order_no: orderNumber(orderPrefix, now, id),
              user_id: key.userId,
              ...columns,
              request_id: key.requestId,
              request_hash: key.fingerprint,
              created_at: now,
            }),
        });
      },
      () => undefined,
    );
    const record = await this.byRequestId(key, lang);
    if (!record) throw new AppError('hint_requestIdReused', 409);
    // A repeated request changes nothing; telling the consoles again costs them one read.
    this.config.changed?.(record.id);
    return record;
  }

  /** A page of requests, newest first, of one user or all, in one status or any. */
  async list(
    query: ReviewListQuery,
    audience: Audience = 'operator',
    lang: LanguageKey = 'en',
  ): Promise<{ rows: Shown[]; total: number }> {
    const [page, show] = await Promise.all([
      pageRequests<Row>(this.config.db, this.config.table, query, query),
      this.config.view(audience, lang),
    ]);
    return { rows: page.rows.map(show), total: page.total };
  }

  /** The owner's requests. */
  async listOwn(userId: number, query: Omit<ReviewListQuery, 'userId'>, lang: LanguageKey = 'en') {
    const { rows, total } = await this.list({ ...query, userId }, 'owner', lang);
    return { rows: rows.map((row) => ownerView(row)), total };
  }

  /** One request of its owner; anyone else's is not found. */
  async detail(userId: number, id: number, lang: LanguageKey = 'en'): Promise<OwnerView<Shown>> {
    const row = await findRequest<Row>(this.config.db, this.config.table, id);
    if (!row || row.user_id !== userId) throw new AppError(this.config.notFoundKey, 404, ['id']);
    return ownerView(await this.showTo('owner', row, lang));
  }

  /** An operator's decision, audited: `reason` is what the user reads of a rejection. */
  async decide(
    name: Name,
    id: number,
    actor: ReviewActor,
    audit: AuditWriter,
    reason: string | null = null,
  ): Promise<ReviewOutcome<Shown>> {
    const decision = this.config.decisions[name];
    assert(decision.by === 'operator', `${name} is not an operator's decision`);
    // Shown before the transaction: it reads the settings (see Database).
    const show = await this.config.view('operator', 'en');
    const { row, changed } = await this.settle(decision, id, {
      columns: { reject_reason: reason, reviewed_by: actor.operatorId },
      audit: async (tx, before, after) =>
        audit(tx, {
          action: decision.action,
          targetType: this.config.targetType,
          targetId: String(before.id),
          before: show(before),
          after: show(after),
        }),
    });
    return { record: show(row), changed };
  }

  /** The owner's own decision on a request under review (taking it back). */
  async decideAsOwner(
    name: Name,
    id: number,
    userId: number,
    lang: LanguageKey = 'en',
  ): Promise<ReviewOutcome<OwnerView<Shown>>> {
    const decision = this.config.decisions[name];
    assert(decision.by === 'owner', `${name} is not the owner's decision`);
    const { row, changed } = await this.settle(decision, id, { ownerId: userId, columns: {} });
    return { record: ownerView(await this.showTo('owner', row, lang)), changed };
  }

  private async settle(
    decision: ReviewDecision<Row>,
    id: number,
    how: {
      ownerId?: number;
      columns: Record<string, unknown>;
      audit?: (tx: Queryable, before: Row, after: Row) => Promise<void>;
    },
  ): Promise<{ row: Row; changed: boolean }> {
    const { db, table } = this.config;
    const now = this.config.clock.now();
    const changed = await db.transaction(async (tx) => {
      const row = await findRequest<Row>(tx, table, id, true);
      if (!row || (how.ownerId !== undefined && row.user_id !== how.ownerId))
        throw new AppError(this.config.notFoundKey, 404, ['id']);
      if (row.status === decision.status) return false;
      if (row.status !== this.config.reviewing) throw new AppError(this.config.closedKey, 409);
      const moved = (await decision.apply?.(tx, row)) ?? {};
      await writeDecision(
        tx,
        table,
        row.id,
        { status: decision.status, ...how.columns, ...moved },
        now,
      );
      await decision.written?.(tx, {
        ...row,
        status: decision.status,
        ...how.columns,
        ...moved,
      } as Row);
      if (how.audit) await how.audit(tx, row, (await findRequest<Row>(tx, table, id))!);
      return true;
    });
    const row = (await findRequest<Row>(db, table, id))!;
    if (changed) {
      decision.after?.(row);
      this.config.changed?.(row.id);
    }
    return { row, changed };
  }
}
