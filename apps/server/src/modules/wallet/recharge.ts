/**
 * Deposits: the channels users pay in through, their requests with a payment proof, and the
 * operator's review. Nothing is credited until an operator approves; approval posts one ledger
 * entry from the outside world to the user's available balance, exactly once.
 */
import {
  normalize,
  RECHARGE_CHANNEL_TYPE,
  RECHARGE_STATUS,
  toScale,
  type InMoneyBody,
  type LanguageKey,
  type RechargeChannel,
  type RechargeRecord,
} from '@bourse/shared';
import type { Actor } from '../../http/actor';
import { AppError } from '../../lib/errors';
import * as ledger from '../../ledger/ledger';
import { currencyIn, type Currency } from '../settings';
import {
  channelAnswer,
  iso,
  openChannelRequest,
  tellBalances,
  textIn,
  type WalletDeps,
} from './common';
import { parseProofImage } from './proof-image';
import {
  countPendingRecharges,
  findRechargeProof,
  findVisibleRechargeChannel,
  insertRechargeProof,
  listVisibleRechargeChannels,
  REVIEW_TABLES,
  type RechargeChannelRow,
  type RechargeRow,
} from './repo';
import { ReviewFlow, type ReviewedRecharge } from './review';
import { notices } from '../messages';

const noop = async () => undefined;

/** Requests under review at once per user: enough for honest use, a brake on flooding. */
export const MAX_PENDING_RECHARGES = 10;

export class Recharges {
  /**
   * The review of deposits: approval credits the deposit (one ledger entry from the outside world
   * to the user's available balance, once whatever the number of clicks); rejection moves nothing.
   */
  readonly review: ReviewFlow<RechargeRow, ReviewedRecharge, 'approve' | 'reject'>;

  /** The currencies the review last showed its rows with (read before each decision). */
  private currencies?: Map<number, Currency>;

  /** A decided deposit's notification to its owner. */
  private notice(row: RechargeRow, approved: boolean) {
    const currency = this.currencies?.get(row.currency_id);
    return notices.deposit(
      {
        userId: row.user_id,
        id: row.id,
        orderNo: row.order_no,
        amount: currency ? toScale(row.amount, currency.scale) : normalize(row.amount),
        currency: currency?.currencyName ?? '',
        reason: row.reject_reason,
      },
      approved,
    );
  }

  constructor(private readonly deps: WalletDeps) {
    this.review = new ReviewFlow({
      db: deps.db,
      clock: deps.clock,
      changed: (id) => deps.queueChanged?.('recharges', id),
      table: REVIEW_TABLES.user_recharge,
      orderPrefix: 'R',
      reviewing: RECHARGE_STATUS.reviewing,
      targetType: 'recharge',
      notFoundKey: 'hint_rechargeNotFound',
      closedKey: 'hint_reviewClosed',
      view: async (_audience, lang) => {
        const currencies = await deps.settings.currencyMap();
        this.currencies = currencies;
        return (row) => this.toRecord(row, currencies, lang);
      },
      decisions: {
        approve: {
          status: RECHARGE_STATUS.approved,
          by: 'operator',
          action: 'recharge.approve',
          apply: async (tx, row) => {
            const entry = await ledger.transfer(tx, {
              book: 'live',
              type: 'recharge',
              scope: 'platform',
              requestId: `recharge:${row.id}`,
              refType: 'recharge',
              refId: row.id,
              from: ledger.platform(row.currency_id, 'external'),
              to: ledger.user(row.user_id, row.currency_id, 'available'),
              amount: normalize(row.amount),
            });
            return { entry_id: entry.entryId };
          },
          // The owner's notification, in the decision's transaction; heard after its commit.
          written: (tx, row) => deps.notices?.record(tx, [this.notice(row, true)]) ?? noop(),
          after: (row) => {
            tellBalances(deps, row.user_id, 'live', row.currency_id);
            deps.notices?.push([this.notice(row, true)]);
          },
        },
        reject: {
          status: RECHARGE_STATUS.rejected,
          by: 'operator',
          action: 'recharge.reject',
          written: (tx, row) => deps.notices?.record(tx, [this.notice(row, false)]) ?? noop(),
          after: (row) => deps.notices?.push([this.notice(row, false)]),
        },
      },
    });
  }

  /** Currencies come from the settings cache, read before any transaction (see Database). */
  private toRecord(
    row: RechargeRow,
    currencies: Map<number, Currency>,
    lang: LanguageKey,
  ): ReviewedRecharge {
    const currency = currencyIn(currencies, row.currency_id);
    return {
      id: row.id,
      orderNo: row.order_no,
      channelId: row.channel_id,
      channelName: textIn(row.channel_name_lang, row.channel_name, lang),
      channelType: row.channel_type,
      currencyId: row.currency_id,
      currencyName: currency.currencyName,
      amount: toScale(row.amount, currency.scale),
      status: row.status,
      rejectReason: row.reject_reason,
      remark: row.remark,
      hasProof: row.has_proof,
      createTime: row.created_at.toISOString(),
      reviewTime: iso(row.reviewed_at),
      userId: row.user_id,
      userAccount: row.user_account ?? '',
    };
  }

  private toChannel(
    row: RechargeChannelRow,
    currency: Currency,
    lang: LanguageKey,
  ): RechargeChannel {
    return {
      ...channelAnswer(row, currency, lang),
      depositAddress: row.deposit_address,
      bankName: row.bank_name === null ? null : textIn(row.bank_name_lang, row.bank_name, lang),
      accountName:
        row.account_name === null ? null : textIn(row.account_name_lang, row.account_name, lang),
      accountNumber: row.account_number,
      payUrl: row.pay_url,
    };
  }

  /** The visible channels, their texts in the reader's language (`lang`, English by default). */
  async channels(currencyId?: number, lang: LanguageKey = 'en'): Promise<RechargeChannel[]> {
    const [currencies, rows] = await Promise.all([
      this.deps.settings.currencyMap(),
      listVisibleRechargeChannels(this.deps.db, currencyId),
    ]);
    return rows.map((row) => this.toChannel(row, currencyIn(currencies, row.currency_id), lang));
  }

  /** A deposit request: checked, stored with its proof, and left for review. */
  async submit(actor: Actor, body: InMoneyBody, lang: LanguageKey = 'en'): Promise<RechargeRecord> {
    const request = await openChannelRequest(
      this.deps,
      actor,
      body,
      {
        review: this.review,
        channel: () => findVisibleRechargeChannel(this.deps.db, body.channelId),
        fields: (channel, amount) => ({
          channelId: channel.id,
          amount,
          remark: body.remark,
          proof: null,
        }),
      },
      lang,
    );
    if (request.earlier) return request.earlier;
    const { key, channel, amount } = request;
    const needsProof = channel.channel_type !== RECHARGE_CHANNEL_TYPE.online;
    if (needsProof && !body.proofImage)
      throw new AppError('hint_proofRequired', 400, ['proofImage']);
    // Decoded and re-encoded (a JPEG without metadata) before the transaction: nothing is stored
    // unless the whole image is sound.
    const proof = body.proofImage ? await parseProofImage(body.proofImage) : null;
    const now = this.deps.clock.now();

    // One request at a time per user (the user lock): the pending count and the request id are
    // then exact.
    return this.review.submit(
      key,
      now,
      async (tx, request) => {
        if ((await countPendingRecharges(tx, actor.userId)) >= MAX_PENDING_RECHARGES)
          throw new AppError('hint_tooManyPendingRecharges', 422, [MAX_PENDING_RECHARGES]);
        await request.insert({
          channel_id: channel.id,
          currency_id: channel.currency_id,
          amount,
          remark: body.remark ?? null,
        });
        if (proof) await insertRechargeProof(tx, request.id, proof);
      },
      lang,
    );
  }

  /** The payment proof, to its owner (`userId`) or to the console (no `userId`). */
  async proof(id: number, userId?: number): Promise<{ mime: string; data: Uint8Array } | null> {
    const row = await findRechargeProof(this.deps.db, id);
    if (!row || (userId !== undefined && row.user_id !== userId)) return null;
    return { mime: row.mime, data: row.data };
  }
}
