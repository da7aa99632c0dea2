/**
 * The user's balance changes (accountRecord): every posting on the account's available and
 * frozen balances in the current book, newest first, read straight from the ledger.
 */
import { normalize, toScale, type BalanceRecord, type BalanceRecordQuery } from '@bourse/shared';
import type { Actor } from '../../http/actor';
import type { WalletDeps } from './common';
import { pageBalancePostings } from './repo';

export async function balanceRecords(
  deps: WalletDeps,
  actor: Actor,
  query: BalanceRecordQuery,
): Promise<{ rows: BalanceRecord[]; total: number }> {
  const [{ rows, total }, currencies] = await Promise.all([
    pageBalancePostings(
      deps.db,
      {
        book: actor.book,
        userId: actor.userId,
        currencyId: query.currencyId,
        category: query.type,
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
