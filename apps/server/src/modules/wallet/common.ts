/** Pieces shared by the wallet's flows: dependencies, amount checks, request fingerprints. */
import { createHash } from 'node:crypto';
import { RECHARGE_STATUS, gt, lt, scaleOf, toScale, type DecimalString } from '@bourse/shared';
import type { Database, Queryable } from '../../db/database';
import type { Clock } from '../../lib/clock';
import type { ActorBook } from '../../http/actor';
import { AppError } from '../../lib/errors';
import type { AccountService } from '../account';
import type { RateSource } from '../assets';
import type { Currency, SettingsService } from '../settings';
import type { AuditWriter, ReviewOutcome } from './review';

export interface WalletDeps {
  db: Database;
  clock: Clock;
  settings: SettingsService;
  accounts: AccountService;
  rates: RateSource;
  /** Tells a user's private /ws topics of a change (their `balances`). */
  notify?: (userId: number, topic: string, data: unknown) => void;
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

export async function requireCurrency(
  settings: SettingsService,
  currencyId: number,
): Promise<Currency> {
  const currency = await settings.currency(currencyId);
  if (!currency) throw new AppError('hint_currencyUnknown', 404, ['currencyId']);
  return currency;
}

/** An amount within the currency's decimals and the channel's bounds. */
export function checkAmount(
  amount: DecimalString,
  currency: Currency,
  min: DecimalString,
  max: DecimalString,
): void {
  if (scaleOf(amount) > currency.scale)
    throw new AppError('hint_amountDecimals', 422, [currency.scale, currency.currencyName]);
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

/** The id a new row of `table` will get (its serial sequence), known before the insert. */
export async function nextId(tx: Queryable, table: string): Promise<number> {
  const { rows } = await tx.query<{ id: number }>(
    'SELECT nextval(pg_get_serial_sequence($1, $2)) AS id',
    [table, 'id'],
  );
  return rows[0]!.id;
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

export interface ReviewStep<Row extends { id: number; status: number }, Shown> {
  id: number;
  /** The status the review moves the request to (from 0, under review). */
  status: number;
  find(q: Queryable, id: number, forUpdate?: boolean): Promise<Row | null>;
  show(row: Row): Shown;
  notFoundKey: string;
  closedKey: string;
  action: string;
  targetType: string;
  /** Moves the money and records the new status, inside the review's transaction. */
  apply(tx: Queryable, row: Row): Promise<void>;
  audit: AuditWriter;
}

/**
 * An operator's review of a request under review, in one transaction: the request row locked,
 * its money moved once, the audit entry written. Asking again for the state it already has
 * changes nothing; any other closed state is refused.
 */
export async function reviewOnce<Row extends { id: number; status: number }, Shown>(
  db: Database,
  step: ReviewStep<Row, Shown>,
): Promise<ReviewOutcome<Shown>> {
  const changed = await db.transaction(async (tx) => {
    const row = await step.find(tx, step.id, true);
    if (!row) throw new AppError(step.notFoundKey, 404, ['id']);
    if (row.status === step.status) return false;
    // Reviewing is 0 for deposits and withdrawals alike (RECHARGE_STATUS, WITHDRAW_STATUS).
    if (row.status !== RECHARGE_STATUS.reviewing) throw new AppError(step.closedKey, 409);
    await step.apply(tx, row);
    const after = (await step.find(tx, step.id))!;
    await step.audit(tx, {
      action: step.action,
      targetType: step.targetType,
      targetId: String(row.id),
      before: step.show(row),
      after: step.show(after),
    });
    return true;
  });
  return { record: step.show((await step.find(db, step.id))!), changed };
}
