/**
 * The operator's management of deposit and withdrawal channels: the platform's own bank account,
 * deposit addresses and payment page, limits and fees. Every change is audited. A withdrawal
 * channel's terms only get worse with notice (PRODUCT section 1.9, terms.ts): what makes
 * withdrawing easier applies at once, what makes it harder (fees up, minimum up, maximum or daily
 * limit down, hiding a channel unless one as good stays visible) is announced and applies after
 * WITHDRAW_TERMS_NOTICE_HOURS. A channel's currency never changes; another route is a new channel.
 */
import {
  cmp,
  isWalletAddress,
  networksOf,
  normalize,
  RECHARGE_CHANNEL_TYPE,
  scaleOf,
  WITHDRAW_CHANNEL_TYPE,
  type rechargeChannelSaveBody,
  type withdrawChannelSaveBody,
} from '@bourse/shared';
import type { z } from 'zod';
import type { Queryable } from '../../db/database';
import { AppError } from '../../lib/errors';
import { requireCurrency, type WalletDeps } from './common';
import type { AuditWriter } from './review';
import {
  applyDue,
  asGoodAs,
  describePending,
  foldDue,
  openChanges,
  planTermsSave,
  writePlan,
  type ChannelTermsRow,
  type PendingTermsChange,
} from './terms';

/** The fee rate column keeps 8 decimals (numeric(12, 8)). */
const FEE_RATE_SCALE = 8;

type StoredWithdrawChannel = ChannelTermsRow & Record<string, unknown>;

/** What an operator saves (the inputs of /admin-api/channels/*: @bourse/shared). */
export type RechargeChannelInput = z.output<typeof rechargeChannelSaveBody>;
export type WithdrawChannelInput = z.output<typeof withdrawChannelSaveBody>;

const invalid = (field: string) => new AppError('hint_paramInvalid', 400, [field]);

export class ChannelAdmin {
  constructor(private readonly deps: WalletDeps) {}

  /** Withdrawal channels with the terms in force now and the changes still to come. */
  async list() {
    const now = this.deps.clock.now();
    const [recharge, stored] = await Promise.all([
      this.deps.db.query('SELECT * FROM recharge_channel ORDER BY sort, id'),
      this.deps.db.query<StoredWithdrawChannel>('SELECT * FROM withdraw_channel ORDER BY sort, id'),
    ]);
    // Every open change once: the due ones give the terms in force, the others are to come.
    const open = await openChanges(
      this.deps.db,
      stored.rows.map((row) => row.id),
    );
    const pending = open.filter((change) => change.effective_at.getTime() > now.getTime());
    return {
      recharge: recharge.rows,
      withdraw: applyDue(stored.rows, open, now).map((row) => ({
        ...row,
        pendingChanges: describePending(pending.filter((change) => change.channel_id === row.id)),
      })),
    };
  }

  private async checkNetwork(currencyId: number, network: string | undefined): Promise<void> {
    const currency = await requireCurrency(this.deps.settings, currencyId);
    if (!network || !networksOf(currency.walletAddressType).includes(network))
      throw invalid('network');
  }

  async saveRecharge(input: RechargeChannelInput, audit: AuditWriter) {
    if (cmp(input.minAmount, input.maxAmount) > 0) throw invalid('maxAmount');
    if (input.channelType === RECHARGE_CHANNEL_TYPE.crypto) {
      await this.checkNetwork(input.currencyId, input.network);
      if (!input.depositAddress || !isWalletAddress(input.network!, input.depositAddress))
        throw invalid('depositAddress');
    } else {
      await requireCurrency(this.deps.settings, input.currencyId);
    }
    if (
      input.channelType === RECHARGE_CHANNEL_TYPE.bank &&
      !(input.bankName && input.accountName && input.accountNumber)
    )
      throw invalid('accountNumber');
    if (
      input.channelType === RECHARGE_CHANNEL_TYPE.online &&
      !(input.payUrl && /^https:\/\/[^\s]+$/.test(input.payUrl))
    )
      throw invalid('payUrl');
    const values = [
      input.channelType,
      input.channelName,
      input.currencyId,
      input.channelType === RECHARGE_CHANNEL_TYPE.crypto ? input.network : null,
      input.channelType === RECHARGE_CHANNEL_TYPE.crypto ? input.depositAddress : null,
      input.channelType === RECHARGE_CHANNEL_TYPE.bank ? input.bankName : null,
      input.channelType === RECHARGE_CHANNEL_TYPE.bank ? input.accountName : null,
      input.channelType === RECHARGE_CHANNEL_TYPE.bank ? input.accountNumber : null,
      input.channelType === RECHARGE_CHANNEL_TYPE.online ? input.payUrl : null,
      input.minAmount,
      input.maxAmount,
      input.remark,
      input.sort,
      input.isVisible,
    ];
    return this.deps.db.transaction(async (tx) => {
      const before = input.id ? await this.lock(tx, 'recharge_channel', input.id) : null;
      const { rows } = before
        ? await tx.query(
            `UPDATE recharge_channel SET channel_type = $1, channel_name = $2, currency_id = $3, network = $4,
               deposit_address = $5, bank_name = $6, account_name = $7, account_number = $8, pay_url = $9,
               min_amount = $10, max_amount = $11, remark = $12, sort = $13, is_visible = $14
             WHERE id = $15 RETURNING *`,
            [...values, input.id],
          )
        : await tx.query(
            `INSERT INTO recharge_channel (channel_type, channel_name, currency_id, network, deposit_address, bank_name,
               account_name, account_number, pay_url, min_amount, max_amount, remark, sort, is_visible)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) RETURNING *`,
            values,
          );
      const after = rows[0]!;
      await audit(tx, {
        action: before ? 'rechargeChannel.update' : 'rechargeChannel.create',
        targetType: 'rechargeChannel',
        targetId: String(after.id),
        before,
        after,
      });
      return after;
    });
  }

  /**
   * Creates a withdrawal channel (never a worsening: it only adds a way out) or changes one: what
   * makes withdrawing easier applies now, what makes it harder is announced and applies after
   * `noticeHours` (planTermsSave in terms.ts). Answers the channel as in force now with the changes
   * still to come (`pendingChanges`, each with its `effectiveTime`); the audit entry holds both,
   * before and after, in the same transaction.
   */
  async saveWithdraw(input: WithdrawChannelInput, audit: AuditWriter, noticeHours: number) {
    if (cmp(input.minAmount, input.maxAmount) > 0) throw invalid('maxAmount');
    if (cmp(input.dailyLimit, input.minAmount) < 0) throw invalid('dailyLimit');
    if (cmp(input.feeRate, '1') >= 0 || scaleOf(normalize(input.feeRate)) > FEE_RATE_SCALE)
      throw invalid('feeRate');
    const currency = await requireCurrency(this.deps.settings, input.currencyId);
    // A fee is charged in whole units of the currency: a finer fixed fee could never be paid as
    // shown (the app rounds the fee to the currency's decimals, and so does the server).
    if (scaleOf(normalize(input.fixedFee)) > currency.scale)
      throw new AppError('hint_amount_scale', 422, ['fixedFee']);
    if (input.channelType === WITHDRAW_CHANNEL_TYPE.crypto)
      await this.checkNetwork(input.currencyId, input.network);
    const network = input.channelType === WITHDRAW_CHANNEL_TYPE.crypto ? input.network : null;
    const now = this.deps.clock.now();
    return this.deps.db.transaction(async (tx) => {
      if (!input.id) {
        const { rows } = await tx.query<StoredWithdrawChannel>(
          `INSERT INTO withdraw_channel (channel_type, channel_name, currency_id, network, fee_rate, fixed_fee,
             min_amount, max_amount, daily_limit, remark, sort, is_visible)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING *`,
          [
            input.channelType,
            input.channelName,
            input.currencyId,
            network,
            input.feeRate,
            input.fixedFee,
            input.minAmount,
            input.maxAmount,
            input.dailyLimit,
            input.remark,
            input.sort,
            input.isVisible,
          ],
        );
        const created = { ...rows[0]!, pendingChanges: [] as PendingTermsChange[] };
        await audit(tx, {
          action: 'withdrawChannel.create',
          targetType: 'withdrawChannel',
          targetId: String(created.id),
          before: null,
          after: created,
        });
        return created;
      }
      const siblings = await this.lockCurrencyChannels(tx, input.id);
      const { rows: inForce, open } = await foldDue(
        tx,
        siblings,
        await openChanges(
          tx,
          siblings.map((row) => row.id),
        ),
        now,
      );
      const current = inForce.find((row) => row.id === input.id)!;
      if (current.currency_id !== input.currencyId)
        throw new AppError('hint_withdrawChannelCurrency', 422);
      // Hiding takes nothing from users only while a channel as good stays visible (asGoodAs).
      const substituteStays = inForce.some((row) =>
        asGoodAs(
          row,
          open.filter((change) => change.channel_id === row.id),
          current,
        ),
      );
      const pendingBefore = open.filter((change) => change.channel_id === input.id);
      const plan = planTermsSave(
        current,
        {
          minAmount: input.minAmount,
          maxAmount: input.maxAmount,
          dailyLimit: input.dailyLimit,
          feeRate: input.feeRate,
          fixedFee: input.fixedFee,
          isVisible: String(input.isVisible),
        },
        pendingBefore,
        substituteStays,
      );
      const { rows } = await tx.query<StoredWithdrawChannel>(
        `UPDATE withdraw_channel SET channel_type = $1, channel_name = $2, network = $3, fee_rate = $4,
           fixed_fee = $5, min_amount = $6, max_amount = $7, daily_limit = $8, remark = $9, sort = $10,
           is_visible = $11
         WHERE id = $12 RETURNING *`,
        [
          input.channelType,
          input.channelName,
          network,
          plan.values.feeRate,
          plan.values.fixedFee,
          plan.values.minAmount,
          plan.values.maxAmount,
          plan.values.dailyLimit,
          input.remark,
          input.sort,
          Number(plan.values.isVisible),
          input.id,
        ],
      );
      await writePlan(tx, input.id, plan, now, noticeHours);
      const pendingAfter = await openChanges(tx, [input.id]);
      const after = { ...rows[0]!, pendingChanges: describePending(pendingAfter) };
      await audit(tx, {
        action: 'withdrawChannel.update',
        targetType: 'withdrawChannel',
        targetId: String(input.id),
        before: { ...current, pendingChanges: describePending(pendingBefore) },
        after,
      });
      return after;
    });
  }

  /**
   * Locks a withdrawal channel with every other channel of its currency, in id order: whether
   * another as good stays visible (asGoodAs) then holds until the save commits.
   */
  private async lockCurrencyChannels(tx: Queryable, id: number): Promise<StoredWithdrawChannel[]> {
    const { rows } = await tx.query<StoredWithdrawChannel>(
      `SELECT * FROM withdraw_channel
       WHERE currency_id = (SELECT currency_id FROM withdraw_channel WHERE id = $1)
       ORDER BY id FOR UPDATE`,
      [id],
    );
    if (!rows.some((row) => row.id === id)) throw new AppError('hint_channelNotFound', 404, ['id']);
    return rows;
  }

  private async lock(
    tx: Queryable,
    table: 'recharge_channel' | 'withdraw_channel',
    id: number,
  ): Promise<Record<string, unknown>> {
    const { rows } = await tx.query(`SELECT * FROM ${table} WHERE id = $1 FOR UPDATE`, [id]);
    if (!rows[0]) throw new AppError('hint_channelNotFound', 404, ['id']);
    return rows[0];
  }
}
