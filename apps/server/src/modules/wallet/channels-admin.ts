/**
 * The operator's management of deposit and withdrawal channels: the platform's own bank account,
 * deposit addresses and payment page, limits and fees. Every change is audited. A withdrawal
 * channel's fees can be lowered but never raised (PRODUCT section 1.5: withdrawals are not gated
 * by fees users were not shown before they deposited); a costlier route is a new channel.
 */
import {
  cmp,
  decimalAmount,
  intField,
  isWalletAddress,
  MAX_SCALE,
  networksOf,
  normalize,
  optionalText,
  RECHARGE_CHANNEL_TYPE,
  safeString,
  text,
  WITHDRAW_CHANNEL_TYPE,
} from '@bourse/shared';
import { z } from 'zod';
import type { Queryable } from '../../db/database';
import { AppError } from '../../lib/errors';
import { requireCurrency, type WalletDeps } from './common';
import type { AuditWriter } from './review';

const amount = decimalAmount({ maxScale: MAX_SCALE });
const nonNegative = decimalAmount({ maxScale: MAX_SCALE, sign: 'nonNegative' });
const flag = z.preprocess(
  (value) =>
    value === 'true' || value === '1' ? 1 : value === 'false' || value === '0' ? 0 : value,
  z.union([z.literal(0), z.literal(1)]),
);

export const rechargeChannelInput = z.object({
  id: z.preprocess((v) => (v === '' ? undefined : v), intField(1).optional()),
  channelType: intField(1, 3),
  channelName: text(64),
  currencyId: intField(1),
  network: optionalText(16),
  depositAddress: optionalText(128),
  bankName: optionalText(64),
  accountName: optionalText(64),
  accountNumber: optionalText(34),
  payUrl: optionalText(512),
  minAmount: amount,
  maxAmount: amount,
  remark: z.preprocess((v) => v ?? '', safeString(500, 'multiLine')),
  sort: z.preprocess((v) => (v === '' || v === undefined ? 0 : v), intField(-1_000_000, 1_000_000)),
  isVisible: z.preprocess((v) => (v === undefined ? 1 : v), flag),
});
export type RechargeChannelInput = z.infer<typeof rechargeChannelInput>;

export const withdrawChannelInput = z.object({
  id: z.preprocess((v) => (v === '' ? undefined : v), intField(1).optional()),
  channelType: intField(1, 2),
  channelName: text(64),
  currencyId: intField(1),
  network: optionalText(16),
  feeRate: nonNegative,
  fixedFee: nonNegative,
  minAmount: amount,
  maxAmount: amount,
  dailyLimit: amount,
  /** Multi-line, like a deposit channel's remark. */
  remark: z.preprocess((v) => v ?? '', safeString(500, 'multiLine')),
  sort: z.preprocess((v) => (v === '' || v === undefined ? 0 : v), intField(-1_000_000, 1_000_000)),
  isVisible: z.preprocess((v) => (v === undefined ? 1 : v), flag),
});
export type WithdrawChannelInput = z.infer<typeof withdrawChannelInput>;

const invalid = (field: string) => new AppError('hint_paramInvalid', 400, [field]);

export class ChannelAdmin {
  constructor(private readonly deps: WalletDeps) {}

  async list() {
    const [recharge, withdraw] = await Promise.all([
      this.deps.db.query('SELECT * FROM recharge_channel ORDER BY sort, id'),
      this.deps.db.query('SELECT * FROM withdraw_channel ORDER BY sort, id'),
    ]);
    return { recharge: recharge.rows, withdraw: withdraw.rows };
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

  async saveWithdraw(input: WithdrawChannelInput, audit: AuditWriter) {
    if (cmp(input.minAmount, input.maxAmount) > 0) throw invalid('maxAmount');
    if (cmp(input.dailyLimit, input.minAmount) < 0) throw invalid('dailyLimit');
    if (cmp(input.feeRate, '1') >= 0) throw invalid('feeRate');
    if (input.channelType === WITHDRAW_CHANNEL_TYPE.crypto)
      await this.checkNetwork(input.currencyId, input.network);
    else await requireCurrency(this.deps.settings, input.currencyId);
    const values = [
      input.channelType,
      input.channelName,
      input.currencyId,
      input.channelType === WITHDRAW_CHANNEL_TYPE.crypto ? input.network : null,
      input.feeRate,
      input.fixedFee,
      input.minAmount,
      input.maxAmount,
      input.dailyLimit,
      input.remark,
      input.sort,
      input.isVisible,
    ];
    return this.deps.db.transaction(async (tx) => {
      const before = input.id ? await this.lock(tx, 'withdraw_channel', input.id) : null;
      if (before) {
        const raises =
          cmp(input.feeRate, normalize(before.fee_rate as string)) > 0 ||
          cmp(input.fixedFee, normalize(before.fixed_fee as string)) > 0 ||
          before.currency_id !== input.currencyId;
        if (raises) throw new AppError('hint_withdrawFeeRaise', 422);
      }
      const { rows } = before
        ? await tx.query(
            `UPDATE withdraw_channel SET channel_type = $1, channel_name = $2, currency_id = $3, network = $4,
               fee_rate = $5, fixed_fee = $6, min_amount = $7, max_amount = $8, daily_limit = $9, remark = $10,
               sort = $11, is_visible = $12
             WHERE id = $13 RETURNING *`,
            [...values, input.id],
          )
        : await tx.query(
            `INSERT INTO withdraw_channel (channel_type, channel_name, currency_id, network, fee_rate, fixed_fee,
               min_amount, max_amount, daily_limit, remark, sort, is_visible)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING *`,
            values,
          );
      const after = rows[0]!;
      await audit(tx, {
        action: before ? 'withdrawChannel.update' : 'withdrawChannel.create',
        targetType: 'withdrawChannel',
        targetId: String(after.id),
        before,
        after,
      });
      return after;
    });
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
