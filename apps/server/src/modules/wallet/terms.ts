/**
 * Withdrawal terms only get worse with notice (PRODUCT section 1.9). A save of a withdrawal
 * channel that makes withdrawing harder (a higher minimum, a lower maximum or daily limit, a higher
 * fee rate or fixed fee, hiding a channel unless another as good stays visible) is stored as an
 * announced change (withdraw_terms_change) that takes effect WITHDRAW_TERMS_NOTICE_HOURS later;
 * what makes withdrawing easier applies at once.
 *
 * The terms in force at a time are the channel's row with the changes due by then laid over it.
 * Every reader computes them from the injected clock, so no scheduler runs and several instances
 * agree to the millisecond; the next save of a channel of the currency writes the due changes into
 * the row (applied_at). Requests already submitted keep the amount and fee stored with them.
 */
import {
  cmp,
  gt,
  lt,
  normalize,
  toScale,
  WITHDRAW_TERMS,
  WITHDRAW_TERMS_RECENT_DAYS,
  type LanguageKey,
  type WithdrawTerm,
  type WithdrawTermsChange,
} from '@bourse/shared';
import type { Queryable } from '../../db/database';
import { textIn, type WalletDeps } from './common';
import {
  insertTermsChange,
  listTermsChangesSince,
  listWithdrawChannelsWithDue,
  markTermsChangesApplied,
  markTermsChangesCancelled,
  setWithdrawChannelTerm,
  TERM_COLUMN,
  type ChannelTermsRow,
  type TermsChangeRow,
  type WithdrawChannelRow,
} from './repo';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** A pending change as the console and the audit log show it. */
export interface PendingTermsChange {
  term: WithdrawTerm;
  oldValue: string;
  newValue: string;
  announceTime: string;
  effectiveTime: string;
}

/** What a save asks of each term (decimal strings; visibility "1" or "0"). */
export type WantedTerms = Record<WithdrawTerm, string>;

export interface TermsPlan {
  /** The value each term has in the row from now on. */
  values: WantedTerms;
  /** Open changes this save replaces or takes back. */
  cancel: number[];
  /** Changes that make withdrawing harder: announced now, in force after the notice. */
  schedule: { term: WithdrawTerm; oldValue: string; newValue: string }[];
}

function termValue(row: ChannelTermsRow, term: WithdrawTerm): string {
  return normalize(String(row[TERM_COLUMN[term]]));
}

/**
 * Whether `other` is as good a way out as `channel` now is: the same currency, type and network
 * (users' bound cards and addresses fit it), visible and not about to be hidden, and on every term
 * at least as good, counting the worsenings it has announced (its `pending` changes). Hiding a
 * channel takes nothing from users only when such a channel stays: hiding the cheap channel of two
 * would otherwise leave only the costlier one at once, a fee increase without notice.
 */
export function asGoodAs(
  other: ChannelTermsRow & { channel_type?: unknown; network?: unknown },
  pending: readonly TermsChangeRow[],
  channel: ChannelTermsRow & { channel_type?: unknown; network?: unknown },
): boolean {
  if (
    other.id === channel.id ||
    other.currency_id !== channel.currency_id ||
    other.channel_type !== channel.channel_type ||
    (other.network ?? null) !== (channel.network ?? null) ||
    other.is_visible !== 1 ||
    pending.some((change) => change.term === 'isVisible')
  )
    return false;
  return WITHDRAW_TERMS.every((term) => {
    if (term === 'isVisible') return true;
    const mine = termValue(channel, term);
    // Its terms once its announced changes apply, if they are worse.
    const theirs = [
      termValue(other, term),
      ...pending.filter((c) => c.term === term).map((c) => normalize(c.new_value)),
    ];
    return theirs.every((value) => !isHarder(term, mine, value, true));
  });
}

/**
 * Whether going from `from` to `to` makes withdrawing harder. Hiding a channel is harder unless a
 * channel as good stays visible (`substituteStays`, see `asGoodAs`).
 */
export function isHarder(
  term: WithdrawTerm,
  from: string,
  to: string,
  substituteStays: boolean,
): boolean {
  switch (term) {
    case 'minAmount':
    case 'feeRate':
    case 'fixedFee':
      return gt(to, from);
    case 'maxAmount':
    case 'dailyLimit':
      return lt(to, from);
    case 'isVisible':
      return lt(to, from) && !substituteStays;
  }
}

/**
 * How a save of an existing channel treats each term, given the terms in force (`current`) and the
 * changes still pending for it:
 * - the value in force asked again: nothing changes, and a pending change of the term is taken
 *   back (going back to the current value cancels the announced one);
 * - an easier value: applies at once, and replaces a pending change of the term;
 * - a harder value: the row keeps the value in force and the change is announced now, in force
 *   after the notice. The same value as the pending change keeps that change and its date (saving
 *   the same form twice does not restart the notice); another value replaces it and restarts the
 *   notice, so users always get the whole notice for what will really apply.
 *
 * A save that mixes both applies the easier terms now and announces the harder ones: users never
 * wait for an improvement and never meet a worsening unannounced, where deferring the whole save
 * would hold back the improvements and applying it whole would skip the notice. Every combination
 * in between is a valid channel: a term is either at the value in force or at the saved one, and
 * a harder minimum stays below, a harder maximum or daily limit above, the saved one (which the
 * save checked: minimum ≤ maximum, minimum ≤ daily limit).
 */
export function planTermsSave(
  current: ChannelTermsRow,
  wanted: WantedTerms,
  pending: TermsChangeRow[],
  substituteStays: boolean,
): TermsPlan {
  const plan: TermsPlan = { values: { ...wanted }, cancel: [], schedule: [] };
  for (const term of WITHDRAW_TERMS) {
    const inForce = termValue(current, term);
    const asked = normalize(wanted[term]);
    const open = pending.find((change) => change.term === term);
    if (cmp(asked, inForce) === 0 || !isHarder(term, inForce, asked, substituteStays)) {
      plan.values[term] = asked;
      if (open) plan.cancel.push(open.id);
      continue;
    }
    plan.values[term] = inForce;
    if (open && cmp(open.new_value, asked) === 0) continue;
    if (open) plan.cancel.push(open.id);
    plan.schedule.push({ term, oldValue: inForce, newValue: asked });
  }
  return plan;
}

/** The rows with the changes due at `now` laid over them. */
export function applyDue<Row extends ChannelTermsRow>(
  rows: Row[],
  changes: TermsChangeRow[],
  now: Date,
): Row[] {
  const due = changes.filter((change) => change.effective_at.getTime() <= now.getTime());
  if (due.length === 0) return rows;
  return rows.map((row) => {
    const mine = due.filter((change) => change.channel_id === row.id);
    if (mine.length === 0) return row;
    const copy = { ...row } as Record<string, unknown>;
    for (const change of mine) {
      const column = TERM_COLUMN[change.term];
      copy[column] = column === 'is_visible' ? Number(change.new_value) : change.new_value;
    }
    return copy as Row;
  });
}

/** Withdrawal channels (hidden ones included) with the terms in force at `now`. */
export async function channelsInForce(
  q: Queryable,
  now: Date,
  filter: { id?: number; currencyId?: number } = {},
): Promise<WithdrawChannelRow[]> {
  const { channels, due } = await listWithdrawChannelsWithDue(q, now, filter);
  return applyDue(channels, due, now);
}

/**
 * Writes the changes of `open` (the rows' open changes) that are due at `now` into the rows, inside
 * a save's transaction with the rows locked: from then on the row alone holds them. Answers the
 * rows as they now are and the changes still to come.
 */
export async function foldDue<Row extends ChannelTermsRow>(
  tx: Queryable,
  rows: Row[],
  open: TermsChangeRow[],
  now: Date,
): Promise<{ rows: Row[]; open: TermsChangeRow[] }> {
  const isDue = (change: TermsChangeRow) => change.effective_at.getTime() <= now.getTime();
  const due = open.filter(isDue);
  for (const change of due)
    await setWithdrawChannelTerm(tx, change.channel_id, change.term, change.new_value);
  if (due.length > 0)
    await markTermsChangesApplied(
      tx,
      due.map((change) => change.id),
      now,
    );
  return { rows: applyDue(rows, due, now), open: open.filter((change) => !isDue(change)) };
}

/** Records a save's plan: replaced changes cancelled first, then the new ones announced. */
export async function writePlan(
  tx: Queryable,
  channelId: number,
  plan: TermsPlan,
  now: Date,
  noticeHours: number,
): Promise<void> {
  if (plan.cancel.length > 0) await markTermsChangesCancelled(tx, plan.cancel, now);
  const effectiveAt = new Date(now.getTime() + noticeHours * HOUR_MS);
  for (const change of plan.schedule) {
    await insertTermsChange(tx, {
      channelId,
      term: change.term,
      oldValue: change.oldValue,
      newValue: change.newValue,
      announcedAt: now,
      effectiveAt,
    });
  }
}

export function describePending(changes: TermsChangeRow[]): PendingTermsChange[] {
  return changes.map((change) => ({
    term: change.term,
    oldValue: normalize(change.old_value),
    newValue: normalize(change.new_value),
    announceTime: change.announced_at.toISOString(),
    effectiveTime: change.effective_at.toISOString(),
  }));
}

/**
 * The announcement: changes that make withdrawing harder, pending or in force for less than
 * WITHDRAW_TERMS_RECENT_DAYS, soonest first. Changes of a hidden channel are left out, except its
 * hiding itself.
 */
export async function listTermsChanges(
  deps: WalletDeps,
  currencyId?: number,
  lang: LanguageKey = 'en',
): Promise<WithdrawTermsChange[]> {
  const now = deps.clock.now();
  const since = new Date(now.getTime() - WITHDRAW_TERMS_RECENT_DAYS * DAY_MS);
  const [currencies, channels, rows] = await Promise.all([
    deps.settings.currencies(),
    channelsInForce(deps.db, now, { currencyId }),
    listTermsChangesSince(deps.db, since, currencyId),
  ]);
  const visible = new Set(channels.filter((row) => row.is_visible === 1).map((row) => row.id));
  const channelById = new Map(channels.map((channel) => [channel.id, channel]));
  const byId = new Map(currencies.map((currency) => [currency.id, currency]));
  return rows.flatMap((row) => {
    const currency = byId.get(row.currency_id);
    if (!currency || (row.term !== 'isVisible' && !visible.has(row.channel_id))) return [];
    const show = (value: string) =>
      row.term === 'feeRate' || row.term === 'isVisible'
        ? normalize(value)
        : toScale(value, currency.scale);
    return [
      {
        id: row.id,
        channelId: row.channel_id,
        channelName: textIn(
          channelById.get(row.channel_id)?.channel_name_lang,
          row.channel_name,
          lang,
        ),
        currencyId: row.currency_id,
        currencyName: currency.currencyName,
        network: row.network,
        term: row.term,
        oldValue: show(row.old_value),
        newValue: show(row.new_value),
        announceTime: row.announced_at.toISOString(),
        effectiveTime: row.effective_at.toISOString(),
        status: row.effective_at.getTime() > now.getTime() ? 'pending' : 'effective',
      },
    ];
  });
}
