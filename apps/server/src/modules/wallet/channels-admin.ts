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
  type PageQuery,
  type rechargeChannelSaveBody,
  type withdrawChannelSaveBody,
} from '@bourse/shared';
import type { z } from 'zod';
import type { Queryable } from '../../db/database';
import { AppError } from '../../lib/errors';
import { requireCurrency, type WalletDeps } from './common';
import {
  insertRechargeChannel,
  insertWithdrawChannel,
  listOpenTermsChanges,
  listRechargeChannels,
  listWithdrawChannels,
  lockCurrencyWithdrawChannels,
  lockRechargeChannel,
  updateRechargeChannel,
  updateWithdrawChannel,
  type LanguageTexts,
  type RechargeChannelRow,
  type RechargeChannelValues,
  type WithdrawChannelRow,
} from './repo';
import type { AuditWriter } from './review';
import {
  applyDue,
  asGoodAs,
  describePending,
  foldDue,
  planTermsSave,
  writePlan,
  type PendingTermsChange,
} from './terms';

/** The fee rate column keeps 8 decimals (numeric(12, 8)). */
const FEE_RATE_SCALE = 8;

/** What an operator saves (the inputs of /admin-api/channels/*: @bourse/shared). */
export type RechargeChannelInput = z.output<typeof rechargeChannelSaveBody>;
export type WithdrawChannelInput = z.output<typeof withdrawChannelSaveBody>;

const invalid = (field: string) => new AppError('hint_paramInvalid', 400, [field]);

/**
 * A text as saved: the plain column (English, the one every language reads when there is no map)
 * and its texts by language. Given a map (its English checked by the schema), the column takes the
 * map's English, so the two never disagree.
 */
function withLanguages(
  plain: string,
  map: Partial<Record<string, string>> | undefined,
): { text: string; lang: LanguageTexts } {
  if (!map) return { text: plain, lang: {} };
  const lang = Object.fromEntries(
    Object.entries(map).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  return { text: lang.en ?? plain, lang };
}

export class ChannelAdmin {
  constructor(private readonly deps: WalletDeps) {}

  /** A page of the deposit channels, hidden ones included. */
  listRecharge(page: PageQuery) {
    return listRechargeChannels(this.deps.db, page);
  }

  /** A page of the withdrawal channels with the terms in force now and the changes still to come. */
  async listWithdraw(page: PageQuery) {
    const now = this.deps.clock.now();
    const stored = await listWithdrawChannels(this.deps.db, page);
    // Every open change of the page's channels once: the due ones give the terms in force, the
    // others are to come.
    const open = await listOpenTermsChanges(
      this.deps.db,
      stored.rows.map((row) => row.id),
    );
    const pending = open.filter((change) => change.effective_at.getTime() > now.getTime());
    return {
      rows: applyDue(stored.rows, open, now).map((row) => ({
        ...row,
        pendingChanges: describePending(pending.filter((change) => change.channel_id === row.id)),
      })),
      total: stored.total,
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
      input.channelType === RECHARGE_CHANNEL_TYPE.online &&
      !(input.payUrl && /^https:\/\/[^\s]+$/.test(input.payUrl))
    )
      throw invalid('payUrl');
    const name = withLanguages(input.channelName, input.channelNameLang);
    const remark = withLanguages(input.remark, input.remarkLang);
    const bank = input.channelType === RECHARGE_CHANNEL_TYPE.bank;
    const bankName = withLanguages(input.bankName ?? '', input.bankNameLang);
    const accountName = withLanguages(input.accountName ?? '', input.accountNameLang);
    if (bank && !(bankName.text && accountName.text && input.accountNumber))
      throw invalid('accountNumber');
    const values: RechargeChannelValues = {
      channelType: input.channelType,
      channelName: name.text,
      currencyId: input.currencyId,
      network: input.channelType === RECHARGE_CHANNEL_TYPE.crypto ? input.network : null,
      depositAddress:
        input.channelType === RECHARGE_CHANNEL_TYPE.crypto ? input.depositAddress : null,
      bankName: bank ? bankName.text : null,
      accountName: bank ? accountName.text : null,
      accountNumber: bank ? input.accountNumber : null,
      payUrl: input.channelType === RECHARGE_CHANNEL_TYPE.online ? input.payUrl : null,
      minAmount: input.minAmount,
      maxAmount: input.maxAmount,
      remark: remark.text,
      sort: input.sort,
      isVisible: input.isVisible,
      channelNameLang: name.lang,
      remarkLang: remark.lang,
      bankNameLang: bank ? bankName.lang : {},
      accountNameLang: bank ? accountName.lang : {},
    };
    return this.deps.db.transaction(async (tx) => {
      const before = input.id ? await this.lockRecharge(tx, input.id) : null;
      const after = before
        ? await updateRechargeChannel(tx, input.id!, values)
        : await insertRechargeChannel(tx, values);
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
    const name = withLanguages(input.channelName, input.channelNameLang);
    const remark = withLanguages(input.remark, input.remarkLang);
    const now = this.deps.clock.now();
    return this.deps.db.transaction(async (tx) => {
      if (!input.id) {
        const inserted = await insertWithdrawChannel(tx, {
          channelType: input.channelType,
          channelName: name.text,
          currencyId: input.currencyId,
          network,
          feeRate: input.feeRate,
          fixedFee: input.fixedFee,
          minAmount: input.minAmount,
          maxAmount: input.maxAmount,
          dailyLimit: input.dailyLimit,
          remark: remark.text,
          sort: input.sort,
          isVisible: input.isVisible,
          channelNameLang: name.lang,
          remarkLang: remark.lang,
        });
        const created = { ...inserted, pendingChanges: [] as PendingTermsChange[] };
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
        await listOpenTermsChanges(
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
      const updated = await updateWithdrawChannel(tx, input.id, {
        channelType: input.channelType,
        channelName: name.text,
        network,
        feeRate: plan.values.feeRate,
        fixedFee: plan.values.fixedFee,
        minAmount: plan.values.minAmount,
        maxAmount: plan.values.maxAmount,
        dailyLimit: plan.values.dailyLimit,
        remark: remark.text,
        sort: input.sort,
        isVisible: Number(plan.values.isVisible),
        channelNameLang: name.lang,
        remarkLang: remark.lang,
      });
      await writePlan(tx, input.id, plan, now, noticeHours);
      const pendingAfter = await listOpenTermsChanges(tx, [input.id]);
      const after = { ...updated, pendingChanges: describePending(pendingAfter) };
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
  private async lockCurrencyChannels(tx: Queryable, id: number): Promise<WithdrawChannelRow[]> {
    const rows = await lockCurrencyWithdrawChannels(tx, id);
    if (!rows.some((row) => row.id === id)) throw new AppError('hint_channelNotFound', 404, ['id']);
    return rows;
  }

  private async lockRecharge(tx: Queryable, id: number): Promise<RechargeChannelRow> {
    const row = await lockRechargeChannel(tx, id);
    if (!row) throw new AppError('hint_channelNotFound', 404, ['id']);
    return row;
  }
}
