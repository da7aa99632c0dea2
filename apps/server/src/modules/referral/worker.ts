/**
 * The commission worker: pays the fee charges the trading tables' triggers wrote (the outbox
 * referral_fee_charge) to the payer's inviters, up to the levels of the terms in force when the
 * fee was charged, at those terms' rates: commission = fee × rate, rounded down at the currency's
 * scale; zeros are skipped. One ledger entry per charge moves the commissions from the platform's
 * fee account (the payer's shard, where the fee went) to each inviter's available balance, on the
 * live book, in the fee's currency, under a request id unique to the charge, so a retry never pays
 * twice; an inviter whose commissions are frozen gets a withheld record and no money. Each charge
 * is paid in its own transaction, locked with SKIP LOCKED: several instances may run the worker at
 * once, and a charge that fails stays pending for the next round without holding up the others.
 *
 * It runs every `intervalMs` in every instance (unref'd: it never keeps a process alive) and
 * picks up whatever is pending, so charges written while no instance ran are paid at the next
 * start. No notification per commission (too many); the team page shows them.
 */
import type { FastifyBaseLogger } from 'fastify';
import { COMMISSION_STATUS, isPositive, mul, neg, sum, toScale } from '@bourse/shared';
import type { Database, Queryable } from '../../db/database';
import * as ledger from '../../ledger/ledger';
import type { Clock } from '../../lib/clock';
import * as repo from './repo';

/** Charges read per round, at most (each paid in its own transaction). */
const BATCH = 200;
/** Rounds in one run, at most, before the timer's next turn (a backlog drains over several). */
const MAX_ROUNDS = 10;

export class CommissionWorker {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;

  constructor(
    private readonly deps: {
      db: Database;
      clock: Clock;
      logger?: FastifyBaseLogger;
      intervalMs?: number;
    },
  ) {}

  start(): void {
    const intervalMs = this.deps.intervalMs ?? 0;
    if (intervalMs <= 0 || this.timer) return;
    this.timer = setInterval(() => void this.runOnce(), intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.running?.catch(() => undefined);
  }

  /** Pays what is pending now; returns how many charges this run processed. */
  runOnce(): Promise<number> {
    // One run at a time per worker: a slow round is never overtaken by the timer's next.
    this.running ??= this.drain().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async drain(): Promise<number> {
    let processed = 0;
    try {
      for (let round = 0; round < MAX_ROUNDS; round++) {
        const ids = await repo.pendingCharges(this.deps.db, BATCH);
        let paidThisRound = 0;
        for (const id of ids) {
          try {
            if (await this.pay(id)) paidThisRound += 1;
          } catch (error) {
            this.deps.logger?.error({ err: error, chargeId: id }, 'referral commission not paid');
          }
        }
        processed += paidThisRound;
        if (ids.length < BATCH || paidThisRound === 0) break;
      }
    } catch (error) {
      this.deps.logger?.error({ err: error }, 'referral commission worker failed');
    }
    return processed;
  }

  /** Pays one charge; false when another worker holds it or it was paid already. */
  private pay(id: number): Promise<boolean> {
    return this.deps.db.transaction(async (tx) => {
      const charge = await repo.lockCharge(tx, id);
      if (!charge) return false;
      const now = this.deps.clock.now();
      const records = await commissionsOf(tx, charge);
      const paid = records.filter((record) => record.status === COMMISSION_STATUS.paid);
      let entryId: number | null = null;
      if (paid.length > 0) {
        const total = sum(paid.map((record) => record.amount));
        const entry = await ledger.post(tx, {
          book: 'live',
          type: 'referral_commission',
          scope: 'referral',
          requestId: `charge:${charge.id}`,
          refType: 'referral_charge',
          refId: charge.id,
          postings: [
            {
              account: ledger.platform(charge.currency_id, 'fees', charge.payer_id),
              amount: neg(total),
            },
            ...paid.map((record) => ({
              account: ledger.user(record.inviterId, charge.currency_id),
              amount: record.amount,
            })),
          ],
        });
        entryId = entry.entryId;
      }
      await repo.insertCommissions(
        tx,
        charge,
        records.map((record) => ({
          ...record,
          entryId: record.status === COMMISSION_STATUS.paid ? entryId : null,
        })),
        now,
      );
      await repo.markProcessed(tx, charge.id, now);
      return true;
    });
  }
}

/** The commissions of one charge at the terms in force when it was charged (zeros left out). */
export async function commissionsOf(
  q: Queryable,
  charge: repo.ChargeRow,
): Promise<Omit<repo.CommissionInput, 'entryId'>[]> {
  const terms = await repo.termsAt(q, charge.charged_at);
  if (!terms) return [];
  const rates = [terms.rate_1, terms.rate_2, terms.rate_3];
  const inviters = await repo.ancestors(q, charge.payer_id, terms.levels);
  const records: Omit<repo.CommissionInput, 'entryId'>[] = [];
  for (const inviter of inviters) {
    const rate = rates[inviter.depth - 1] ?? '0';
    const amount = toScale(mul(charge.fee, rate), charge.scale, 'down');
    if (!isPositive(amount)) continue;
    records.push({
      level: inviter.depth,
      inviterId: inviter.ancestor_id,
      rate,
      amount,
      status: inviter.frozen ? COMMISSION_STATUS.withheld : COMMISSION_STATUS.paid,
    });
  }
  return records;
}
