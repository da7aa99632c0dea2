/**
 * The user's balance changes (accountRecord): every posting on the account's available and
 * frozen balances in the current book, newest first, read straight from the ledger.
 */
import { normalize, toScale, type BalanceRecord, type BalanceRecordQuery } from '@bourse/shared';
import { pageOf } from '../../db/page';
import type { Actor } from '../../http/actor';
import type { WalletDeps } from './common';

/** The record category of a ledger entry type (RECORD_TYPES). */
const CATEGORY = `CASE
  WHEN e.entry_type = 'recharge' THEN 'recharge'
  WHEN e.entry_type LIKE '%:withdraw%' THEN 'withdraw'
  WHEN e.entry_type = 'exchange' THEN 'exchange'
  WHEN e.entry_type LIKE 'demo%' THEN 'demo'
  WHEN e.entry_type ~ '(^|:)trade' THEN 'trade'
  ELSE 'other' END`;

interface Row {
  entry_id: number;
  line: number;
  category: string;
  entry_type: string;
  currency_id: number;
  kind: string;
  amount: string;
  balance_after: string;
  ref_type: string | null;
  ref_id: string | null;
  created_at: Date;
}

export async function balanceRecords(
  deps: WalletDeps,
  actor: Actor,
  query: BalanceRecordQuery,
): Promise<{ rows: BalanceRecord[]; total: number }> {
  const params = [actor.book, actor.userId, query.currencyId ?? null, query.type ?? null];
  const from = `
    FROM ledger_account a
    JOIN ledger_posting p ON p.account_id = a.id
    JOIN ledger_entry e ON e.id = p.entry_id
    WHERE a.book = $1 AND a.owner_type = 'user' AND a.owner_id = $2 AND a.kind IN ('available', 'frozen')
      AND ($3::int IS NULL OR a.currency_id = $3)
      AND ($4::text IS NULL OR ${CATEGORY} = $4)`;
  const [{ rows, total }, currencies] = await Promise.all([
    pageOf<Row>(
      deps.db,
      {
        rows: `SELECT p.entry_id, p.line, ${CATEGORY} AS category, e.entry_type, a.currency_id, a.kind, p.amount,
                      p.balance_after, e.ref_type, e.ref_id, e.created_at
               ${from}
               ORDER BY p.entry_id DESC, p.line DESC`,
        count: `SELECT count(*)::int AS total ${from}`,
        params,
      },
      query,
    ),
    deps.settings.currencies(),
  ]);
  const byId = new Map(currencies.map((currency) => [currency.id, currency]));
  return {
    rows: rows.map((row) => {
      const currency = byId.get(row.currency_id);
      const scale = currency?.scale ?? 18;
      return {
        id: `${row.entry_id}-${row.line}`,
        entryId: row.entry_id,
        type: row.category,
        entryType: row.entry_type,
        currencyId: row.currency_id,
        currencyName: currency?.currencyName ?? '',
        kind: row.kind,
        amount: toScale(normalize(row.amount), scale),
        balanceAfter: toScale(normalize(row.balance_after), scale),
        refType: row.ref_type,
        refId: row.ref_id,
        createTime: row.created_at.toISOString(),
      };
    }),
    total,
  };
}
