/**
 * The wallet: deposits, withdrawals, exchange and records, every amount moved by the ledger.
 * It is also the operator console's only way to move money (WalletReview).
 */
import type { BalanceRecordQuery, PageQuery } from '@bourse/shared';
import type { Actor } from '../../http/actor';
import {
  ChannelAdmin,
  type RechargeChannelInput,
  type WithdrawChannelInput,
} from './channels-admin';
import type { WalletDeps } from './common';
import { Exchange } from './exchange';
import { Recharges } from './recharge';
import { balanceRecords } from './records';
import type { AuditWriter, ReviewActor, ReviewListQuery, WalletReview } from './review';
import { Withdrawals } from './withdraw';

export type { WalletDeps } from './common';

export class WalletService implements WalletReview {
  readonly recharges: Recharges;
  readonly withdrawals: Withdrawals;
  readonly exchange: Exchange;
  private readonly channelAdmin: ChannelAdmin;

  constructor(private readonly deps: WalletDeps) {
    this.recharges = new Recharges(deps);
    this.withdrawals = new Withdrawals(deps);
    this.exchange = new Exchange(deps);
    this.channelAdmin = new ChannelAdmin(deps);
  }

  listRechargeChannels(page: PageQuery) {
    return this.channelAdmin.listRecharge(page);
  }

  listWithdrawChannels(page: PageQuery) {
    return this.channelAdmin.listWithdraw(page);
  }

  saveRechargeChannel(input: RechargeChannelInput, audit: AuditWriter) {
    return this.channelAdmin.saveRecharge(input, audit);
  }

  saveWithdrawChannel(input: WithdrawChannelInput, audit: AuditWriter, noticeHours: number) {
    return this.channelAdmin.saveWithdraw(input, audit, noticeHours);
  }

  records(actor: Actor, query: BalanceRecordQuery) {
    return balanceRecords(this.deps, actor, query);
  }

  listRecharges(query: ReviewListQuery) {
    return this.recharges.review.list(query);
  }

  rechargeProof(id: number) {
    return this.recharges.proof(id);
  }

  approveRecharge(id: number, actor: ReviewActor, audit: AuditWriter) {
    return this.recharges.review.decide('approve', id, actor, audit);
  }

  rejectRecharge(id: number, actor: ReviewActor, reason: string, audit: AuditWriter) {
    return this.recharges.review.decide('reject', id, actor, audit, reason);
  }

  listWithdrawals(query: ReviewListQuery) {
    return this.withdrawals.review.list(query);
  }

  payWithdrawal(id: number, actor: ReviewActor, audit: AuditWriter) {
    return this.withdrawals.review.decide('pay', id, actor, audit);
  }

  rejectWithdrawal(id: number, actor: ReviewActor, reason: string, audit: AuditWriter) {
    return this.withdrawals.review.decide('reject', id, actor, audit, reason);
  }
}
