/** Pieces shared by the wallet's flows: dependencies, amount checks, request fingerprints. */
import { createHash } from 'node:crypto';
import {
  gt,
  lt,
  normalize,
  scaleOf,
  toScale,
  type DecimalString,
  type LanguageKey,
} from '@bourse/shared';
import type { Database } from '../../db/database';
import type { Clock } from '../../lib/clock';
import type { RequestKey } from '../../db/user-lock';
import type { Actor, ActorBook } from '../../http/actor';
import { AppError } from '../../lib/errors';
import { pickLanguage } from '../../lib/i18n';
import type { AccountService } from '../account';
import type { WithdrawWhitelists } from '../payment-methods';
import type { RateSource } from '../assets';
import type { NoticeWriter } from '../messages';
import type { Currency, SettingsService } from '../settings';

export interface WalletDeps {
  db: Database;
  clock: Clock;
  settings: SettingsService;
  accounts: AccountService;
  /** Refuses a withdrawal to a card or address not yet whitelisted (when the user's switch is on). */
  whitelist: Pick<WithdrawWhitelists, 'check'>;
  rates: RateSource;
  /** Tells a user's private /ws topics of a change (their `balances`). */
  notify?: (userId: number, topic: string, data: unknown) => void;
  /**
   * Tells operators' consoles that a review queue changed (`recharges`, `withdrawals`): a request
   * submitted or leaving review, after its commit.
   */
  queueChanged?: (queue: string, id: number) => void;
  /** Notifications of the user's own events (a deposit or withdrawal decided). */
  notices?: NoticeWriter;
  /** Refuses a feature to a user below the verified level it needs (`hint_identityRequired`). */
  identityRequired?: (userId: number, feature: 'withdraw') => Promise<void>;
}

/** After a commit that moved a user's money: their open screens hear it on `balances`. */
export function tellBalances(
  deps: WalletDeps,
  userId: number,
  book: 'live' | 'demo',
  ...currencyIds: number[]
): void {
  for (const currencyId of currencyIds) deps.notify?.(userId, 'balances', { book, currencyId });
}

/** The platform's currencies by id, from the settings cache (read it before any transaction). */
export async function requireCurrency(
  settings: SettingsService,
  currencyId: number,
): Promise<Currency> {
  const currency = await settings.currency(currencyId);
  if (!currency) throw new AppError('hint_currencyUnknown', 404, ['currencyId']);
  return currency;
}

/** An amount the currency can hold: no more decimals than its scale. */
export function checkDecimals(amount: DecimalString, currency: Currency): void {
  if (scaleOf(amount) > currency.scale)
    throw new AppError('hint_amountDecimals', 422, [currency.scale, currency.currencyName]);
}

/** An amount within the currency's decimals and the channel's bounds. */
export function checkAmount(
  amount: DecimalString,
  currency: Currency,
  min: DecimalString,
  max: DecimalString,
): void {
  checkDecimals(amount, currency);
  // The limits as the currency writes them ("500000.0000", not the column's 18 decimals).
  if (lt(amount, min))
    throw new AppError('hint_amountBelowMin', 422, [
      toScale(min, currency.scale),
      currency.currencyName,
    ]);
  if (gt(amount, max))
    throw new AppError('hint_amountAboveMax', 422, [
      toScale(max, currency.scale),
      currency.currencyName,
    ]);
}

/** What deposit and withdrawal channels bound a request's amount with. */
export interface ChannelBounds {
  id: number;
  currency_id: number;
  min_amount: string;
  max_amount: string;
}

/**
 * An operator's text in the reader's language: from its texts by language (English when the
 * language has none), else the plain column, which every language reads when there are none.
 */
export function textIn(
  texts: Record<string, string> | null | undefined,
  plain: string,
  lang: LanguageKey,
): string {
  return pickLanguage(texts, lang) || plain;
}

/**
 * A channel as deposit and withdrawal channels both answer it (their own fields added), its texts
 * in the reader's language.
 */
export function channelAnswer(
  row: ChannelBounds & {
    channel_type: number;
    channel_name: string;
    network: string | null;
    remark: string;
    channel_name_lang: Record<string, string>;
    remark_lang: Record<string, string>;
    is_example: number;
  },
  currency: Currency,
  lang: LanguageKey,
) {
  const scale = currency.scale;
  return {
    id: row.id,
    channelType: row.channel_type,
    channelName: textIn(row.channel_name_lang, row.channel_name, lang),
    currencyId: row.currency_id,
    currencyName: currency.currencyName,
    network: row.network,
    minAmount: toScale(row.min_amount, scale),
    maxAmount: toScale(row.max_amount, scale),
    scale,
    remark: textIn(row.remark_lang, row.remark, lang),
    isExample: row.is_example === 1,
  };
}

/**
 * The opening of a deposit or withdrawal request, in this order: refused in the demo book, then
 * when `channel` finds no visible channel, then for an unknown currency. A request id used before
 * answers that first request (`earlier`: `review` compares the fingerprints of `fields`, what the
 * request asks); a new request's amount must then fit the currency's decimals and the channel's
 * bounds.
 */
export async function openChannelRequest<Channel extends ChannelBounds, Answer>(
  deps: WalletDeps,
  actor: Actor,
  body: { amount: string; requestId: string },
  request: {
    channel: () => Promise<Channel | undefined>;
    fields: (channel: Channel, amount: DecimalString) => Record<string, unknown>;
    review: {
      requested(
        userId: number,
        requestId: string,
        fields: Record<string, unknown>,
        lang: LanguageKey,
      ): Promise<{ key: RequestKey; earlier: Answer | null }>;
    };
  },
  lang: LanguageKey,
): Promise<
  | { earlier: Answer }
  | { earlier: null; key: RequestKey; channel: Channel; currency: Currency; amount: DecimalString }
> {
  refuseDemo(actor.book);
  const channel = await request.channel();
  if (!channel) throw new AppError('hint_channelNotFound', 404, ['channelId']);
  const currency = await requireCurrency(deps.settings, channel.currency_id);
  const amount = normalize(body.amount);
  const { key, earlier } = await request.review.requested(
    actor.userId,
    body.requestId,
    request.fields(channel, amount),
    lang,
  );
  if (earlier) return { earlier };
  checkAmount(amount, currency, channel.min_amount, channel.max_amount);
  return { earlier: null, key, channel, currency, amount };
}

/** What a request asked, so that a reused request id with another body is told apart. */
export function fingerprint(fields: Record<string, unknown>): string {
  const text = JSON.stringify(
    Object.keys(fields)
      .sort()
      .map((key) => [key, fields[key] ?? null]),
  );
  return createHash('sha256').update(text).digest('base64url');
}

/**
 * A readable order number, unique by construction: prefix, UTC time to the second, and the
 * request's own id (random digits collided when thousands of orders shared a second).
 */
export function orderNumber(prefix: string, now: Date, id: number): string {
  return `${orderStamp(prefix, now)}${String(id).padStart(8, '0')}`;
}

/** An order number's part before the id (SQL functions that number their own rows add it). */
export function orderStamp(prefix: string, now: Date): string {
  return `${prefix}${now.toISOString().replace(/[-:T]/g, '').slice(0, 14)}`;
}

export function iso(value: Date | null): string | null {
  return value ? value.toISOString() : null;
}

export function startOfUtcDay(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

/** Demo accounts hold virtual funds: they cannot pay in or out. */
export function refuseDemo(book: ActorBook): void {
  if (book === 'demo') throw new AppError('hint_demoNoFunding', 403);
}
