/**
 * What the operator console may do with deposits and withdrawals: list them and approve or reject
 * them. This is the only way operator actions move money (PRODUCT section 1): approving a deposit
 * credits it, paying a withdrawal captures its frozen funds, rejecting releases them. Each action
 * runs in one transaction together with the audit entry the caller writes.
 */
import type { Queryable } from '../../db/database';
import type { RechargeRecord, WithdrawRecord } from '@bourse/shared';
import type { RechargeChannelInput, WithdrawChannelInput } from './channels-admin';

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
  /** Every deposit and withdrawal channel, hidden ones included, as stored. */
  listChannels(): Promise<{ recharge: unknown[]; withdraw: unknown[] }>;
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
