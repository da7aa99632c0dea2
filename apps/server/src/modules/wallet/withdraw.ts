/**
 * Withdrawals: channels with their fees and limits, requests that freeze amount plus fee at once
 * (a ledger hold), cancellation while under review, and the operator's payment or rejection.
 * A request is refused while the account is held after a password change, with a wrong
 * withdrawal password (5 tries, then an hour's lock), or beyond the channel's limits.
 */
import {
  add,
  gt,
  isPositive,
  maskBankCard,
  maskWalletAddress,
  max,
  normalize,
  SWITCH,
  sub,
  toScale,
  withdrawalFee,
  WITHDRAW_CHANNEL_TYPE,
  WITHDRAW_STATUS,
  type LanguageKey,
  type OutMoneyBody,
  type WithdrawChannel,
  type WithdrawDestination,
  type WithdrawDestinationQuery,
  type WithdrawRecord,
  type WithdrawTermsChange,
} from '@bourse/shared';
import type { Queryable } from '../../db/database';
import type { Actor } from '../../http/actor';
import { assertAmount } from '../../lib/money-assert';
import { AppError } from '../../lib/errors';
import * as ledger from '../../ledger/ledger';
import { currencyIn, type Currency } from '../settings';
import { channelsInForce, listTermsChanges } from './terms';
import {
  channelAnswer,
  iso,
  openChannelRequest,
  startOfUtcDay,
  tellBalances,
  textIn,
  type WalletDeps,
} from './common';
import {
  findBankCardProperties,
  findWalletAddress,
  REVIEW_TABLES,
  sumWithdrawnSince,
  type WithdrawChannelRow,
  type WithdrawRow,
} from './repo';
import { ReviewFlow, type ReviewedWithdraw } from './review';
import { notices } from '../messages';

const noop = async () => undefined;

/** Masking of what users see, from the switches; operators see destinations whole. */
interface Masks {
  card: boolean;
  address: boolean;
}

export class Withdrawals {
  /**
   * The review of withdrawals. Paying captures the hold: the amount leaves to the outside world and
   * the fee to the platform's fee account. Rejecting, or the user cancelling while it is under
   * review, releases it to the user's available balance.
   */
  readonly review: ReviewFlow<WithdrawRow, ReviewedWithdraw, 'pay' | 'reject' | 'cancel'>;

  /** The currencies the review last showed its rows with (read before each decision). */
  private currencies?: Map<number, Currency>;

  /** A decided withdrawal's notification to its owner. */
  private notice(row: WithdrawRow, paid: boolean) {
    const currency = this.currencies?.get(row.currency_id);
    return notices.withdrawal(
      {
        userId: row.user_id,
        id: row.id,
        orderNo: row.order_no,
        amount: currency ? toScale(row.amount, currency.scale) : normalize(row.amount),
        currency: currency?.currencyName ?? '',
        reason: row.reject_reason,
      },
      paid,
    );
  }

  constructor(private readonly deps: WalletDeps) {
    const told = (row: WithdrawRow) => tellBalances(deps, row.user_id, 'live', row.currency_id);
    // The owner's notification of an operator's decision: in its transaction, heard after.
    const noticed = (paid: boolean) => ({
      written: (tx: Queryable, row: WithdrawRow) =>
        deps.notices?.record(tx, [this.notice(row, paid)]) ?? noop(),
      after: (row: WithdrawRow) => {
        told(row);
        deps.notices?.push([this.notice(row, paid)]);
      },
    });
    this.review = new ReviewFlow({
      db: deps.db,
      clock: deps.clock,
      changed: (id) => deps.queueChanged?.('withdrawals', id),
      table: REVIEW_TABLES.user_withdraw,
      orderPrefix: 'W',
      reviewing: WITHDRAW_STATUS.reviewing,
      targetType: 'withdraw',
      notFoundKey: 'hint_withdrawNotFound',
      closedKey: 'hint_withdrawClosed',
      view: async (audience, lang) => {
        const [currencies, masks] = await Promise.all([
          deps.settings.currencyMap(),
          audience === 'owner' ? this.masks() : null,
        ]);
        this.currencies = currencies;
        return (row) => this.toRecord(row, currencies, masks, lang);
      },
      decisions: {
        pay: {
          status: WITHDRAW_STATUS.paid,
          by: 'operator',
          action: 'withdraw.pay',
          apply: async (tx, row) => {
            await ledger.capture(tx, row.hold_id, {
              amount: normalize(row.amount),
              to: ledger.platform(row.currency_id, 'external'),
              type: 'withdraw',
            });
            if (isPositive(row.fee)) {
              await ledger.capture(tx, row.hold_id, {
                amount: normalize(row.fee),
                to: ledger.platform(row.currency_id, 'fees'),
                type: 'withdraw_fee',
              });
            }
          },
          ...noticed(true),
        },
        reject: {
          status: WITHDRAW_STATUS.rejected,
          by: 'operator',
          action: 'withdraw.reject',
          apply: async (tx, row) => {
            await ledger.release(tx, row.hold_id, 'reject');
          },
          ...noticed(false),
        },
        cancel: {
          status: WITHDRAW_STATUS.cancelled,
          by: 'owner',
          apply: async (tx, row) => {
            await ledger.release(tx, row.hold_id, 'cancel');
          },
          after: told,
        },
      },
    });
  }

  private async masks(): Promise<Masks> {
    const [card, address] = await Promise.all([
      this.deps.settings.switchOn(SWITCH.maskBankCard),
      this.deps.settings.switchOn(SWITCH.maskWalletAddress),
    ]);
    return { card, address };
  }

  /** Operators see the destination whole (`masks` null): they pay it. */
  private toRecord(
    row: WithdrawRow,
    currencies: Map<number, Currency>,
    masks: Masks | null,
    lang: LanguageKey,
  ): ReviewedWithdraw {
    const currency = currencyIn(currencies, row.currency_id);
    const scale = currency.scale;
    const destination = { ...row.destination };
    if (masks?.card && destination.cardNumber)
      destination.cardNumber = maskBankCard(destination.cardNumber);
    if (masks?.address && destination.address)
      destination.address = maskWalletAddress(destination.address);
    return {
      id: row.id,
      orderNo: row.order_no,
      channelId: row.channel_id,
      channelName: textIn(row.channel_name_lang, row.channel_name, lang),
      currencyId: row.currency_id,
      currencyName: currency.currencyName,
      amount: toScale(row.amount, scale),
      fee: toScale(row.fee, scale),
      totalAmount: toScale(add(row.amount, row.fee), scale),
      destination,
      status: row.status,
      rejectReason: row.reject_reason,
      createTime: row.created_at.toISOString(),
      closeTime: iso(row.closed_at),
      userId: row.user_id,
      userAccount: row.user_account,
    };
  }

  /** What the user withdrew today (UTC) through a channel, under review or paid. */
  private async usedToday(q: Queryable, userId: number, channelIds: number[]) {
    const rows = await sumWithdrawnSince(
      q,
      userId,
      channelIds,
      startOfUtcDay(this.deps.clock.now()),
    );
    return new Map(rows.map((row) => [row.channel_id, normalize(row.used)]));
  }

  /** The visible channels, their texts in the reader's language (`lang`, English by default). */
  async channels(
    actor: Actor,
    currencyId?: number,
    lang: LanguageKey = 'en',
  ): Promise<WithdrawChannel[]> {
    const [currencies, all] = await Promise.all([
      this.deps.settings.currencyMap(),
      channelsInForce(this.deps.db, this.deps.clock.now(), { currencyId }),
    ]);
    const rows = all.filter((row) => row.is_visible === 1);
    const used = await this.usedToday(
      this.deps.db,
      actor.userId,
      rows.map((row) => row.id),
    );
    return rows.flatMap((row) => {
      const currency = currencies.get(row.currency_id);
      if (!currency) return [];
      const scale = currency.scale;
      return [
        {
          ...channelAnswer(row, currency, lang),
          feeRate: normalize(row.fee_rate),
          fixedFee: toScale(row.fixed_fee, scale),
          dailyLimit: toScale(row.daily_limit, scale),
          dailyRemaining: toScale(max('0', sub(row.daily_limit, used.get(row.id) ?? '0')), scale),
        },
      ];
    });
  }

  /** The announced changes of withdrawal terms: pending, or in force for less than 30 days. */
  termsChanges(currencyId?: number, lang: LanguageKey = 'en'): Promise<WithdrawTermsChange[]> {
    return listTermsChanges(this.deps, currencyId, lang);
  }

  /** One of the user's bound cards, whole, as a withdrawal's destination. */
  private async ownCard(userId: number, bankId: number): Promise<WithdrawDestination> {
    const card = await findBankCardProperties(this.deps.db, userId, bankId);
    if (!card) throw new AppError('hint_bankCardNotFound', 404, ['bankId']);
    return {
      kind: 'bank',
      bankName: card.bankName ?? '',
      accountName: card.accountName ?? '',
      cardNumber: (card.cardNumber ?? '').replace(/\s+/g, ''),
    };
  }

  /**
   * Where a withdrawal to one of the user's own bound cards or addresses goes, whole (never
   * masked): the app shows it on the confirmation, the last step before money leaves, so the user
   * can check every character. Only the owner gets it (another user's id is not found); lists and
   * records stay masked as the switches say.
   */
  async ownDestination(userId: number, query: WithdrawDestinationQuery) {
    if (query.bankId !== undefined && query.addressId !== undefined)
      throw new AppError('hint_paramInvalid', 400, ['addressId']);
    if (query.bankId !== undefined) return this.ownCard(userId, query.bankId);
    if (query.addressId === undefined) throw new AppError('hint_paramRequired', 400, ['addressId']);
    const address = await findWalletAddress(this.deps.db, userId, query.addressId);
    if (!address) throw new AppError('hint_walletAddressNotFound', 404, ['addressId']);
    return { kind: 'address' as const, network: address.network, address: address.address };
  }

  /**
   * The bound card or address the request names, checked against the channel and, while the
   * user's whitelist is on, against its age.
   */
  private async destination(
    userId: number,
    channel: WithdrawChannelRow,
    body: OutMoneyBody,
  ): Promise<{ bankId: number | null; addressId: number | null; value: WithdrawDestination }> {
    if (channel.channel_type === WITHDRAW_CHANNEL_TYPE.bank) {
      if (!body.bankId) throw new AppError('hint_bankCardRequired', 400, ['bankId']);
      const value = await this.ownCard(userId, body.bankId);
      await this.deps.whitelist.check(userId, { bankId: body.bankId });
      return { bankId: body.bankId, addressId: null, value };
    }
    if (!body.addressId) throw new AppError('hint_addressRequired', 400, ['addressId']);
    const address = await findWalletAddress(this.deps.db, userId, body.addressId);
    if (!address) throw new AppError('hint_walletAddressNotFound', 404, ['addressId']);
    if (address.currency_id !== channel.currency_id || address.network !== channel.network)
      throw new AppError('hint_addressNetworkMismatch', 422, [channel.network ?? '']);
    await this.deps.whitelist.check(userId, { addressId: body.addressId });
    return {
      bankId: null,
      addressId: body.addressId,
      value: { kind: 'address', network: address.network, address: address.address },
    };
  }

  /**
   * A withdrawal request: amount plus fee frozen at once, left for the operator to pay. It is
   * checked against the channel's terms in force now, and its fee is stored with it: a change of
   * the channel's terms that takes effect later never touches it (PRODUCT section 1.9).
   */
  async submit(
    actor: Actor,
    body: OutMoneyBody,
    lang: LanguageKey = 'en',
  ): Promise<WithdrawRecord> {
    const now = this.deps.clock.now();
    const request = await openChannelRequest(
      this.deps,
      actor,
      body,
      {
        review: this.review,
        channel: async () =>
          (await channelsInForce(this.deps.db, now, { id: body.channelId })).find(
            (row) => row.is_visible === 1,
          ),
        fields: (channel, amount) => ({
          channelId: channel.id,
          amount,
          bankId: body.bankId,
          addressId: body.addressId,
        }),
      },
      lang,
    );
    if (request.earlier) return request.earlier;
    const { key, channel, currency, amount } = request;
    // The verified level withdrawals need (identity requirements), before anything else is asked.
    await this.deps.identityRequired?.(actor.userId, 'withdraw');
    const destination = await this.destination(actor.userId, channel, body);

    await this.deps.accounts.authorizeWithdrawal(actor.userId, body.withPwd, body.twoFactorCode);

    // The same function the app shows the fee with (packages/shared amounts.ts).
    const fee = withdrawalFee(
      amount,
      { feeRate: channel.fee_rate, fixedFee: channel.fixed_fee },
      currency.scale,
    );
    const total = add(amount, fee);
    assertAmount(fee, 'withdrawal fee', currency.scale, 'nonNegative');
    assertAmount(total, 'withdrawal total', currency.scale);
    // Requests of one user queue on the user lock, so the daily limit and the request id are exact.
    const record = await this.review.submit(
      key,
      now,
      async (tx, request) => {
        const used = (await this.usedToday(tx, actor.userId, [channel.id])).get(channel.id) ?? '0';
        const remaining = max('0', sub(channel.daily_limit, used));
        if (gt(amount, remaining))
          throw new AppError('hint_withdrawDailyLimit', 422, [
            toScale(remaining, currency.scale),
            currency.currencyName,
          ]);
        const hold = await ledger.hold(tx, {
          book: 'live',
          userId: actor.userId,
          currencyId: channel.currency_id,
          amount: total,
          type: 'withdraw',
          refType: 'withdraw',
          refId: request.id,
        });
        await request.insert({
          channel_id: channel.id,
          currency_id: channel.currency_id,
          amount,
          fee,
          bank_id: destination.bankId,
          address_id: destination.addressId,
          destination: JSON.stringify(destination.value),
          hold_id: hold.id,
        });
      },
      lang,
    );
    tellBalances(this.deps, actor.userId, 'live', record.currencyId);
    return record;
  }
}
