/**
 * Migration 0014 on a database that traded coin to coin before it: coins held in the holding
 * table become wallet balances (from the house), a resting sell's frozen coins become a ledger
 * hold, pairs whose coin is no wallet currency stop offering coin to coin, and the ledger verifies.
 */
import { describe, expect, it } from 'vitest';
import { loadMigrations, migrate } from '../src/db/migrate';
import { seedDefaults } from '../src/db/seed';
import { verifyLedger } from '../src/ledger/verify';
import * as ledger from '../src/ledger/ledger';
import { createTestDatabase } from './helpers';

describe('migration 0014: coin-to-coin coins into the ledger', () => {
  it('moves held coins and resting sells into the wallet and a hold, and verifies', async () => {
    const database = await createTestDatabase(false);
    const db = database.db;
    try {
      const all = await loadMigrations();
      await migrate(
        db,
        all.filter((migration) => migration.version <= 13),
      );
      await seedDefaults(db);
      const { rows: products } = await db.query<{ id: number; product_code: string }>(
        `INSERT INTO product (product_type, product_code, product_name_lang, product_desc,
           position_types, sort, standard, price_scale, leverages, session, source_symbol,
           reference_price, volatility, daily_volume, recommended)
         VALUES (2, 'BTCUSDT', '{"en":"Bitcoin"}', '', '{0,1,2,3}', 1, 0.0001, 2, '{1,10}', 'crypto', 'BTCUSDT', 100000, 0.01, 1, 0),
                (2, 'XRPUSDT', '{"en":"XRP"}', '', '{0,1,2,3}', 2, 1, 4, '{1,10}', 'crypto', 'XRPUSDT', 1, 0.01, 1, 0)
         RETURNING id, product_code`,
      );
      const btcPair = products.find((row) => row.product_code === 'BTCUSDT')!.id;
      const { rows: users } = await db.query<{ id: number }>(
        `INSERT INTO app_user (reg_type, email, user_account, password_hash, nick_name, invite_code, created_at)
         VALUES (1, 'm@example.com', 'm@example.com', 'x', 'm', 'MIGR1', now()) RETURNING id`,
      );
      const userId = users[0]!.id;
      // Before 0014: 0.03 BTC bought coin to coin (cost 3,000), 0.01 of it frozen by a resting sell.
      await db.query(
        `INSERT INTO holding (user_id, book, product_id, position_type, quantity, frozen_quantity, cost, updated_at)
         VALUES ($1, 'live', $2, 3, 0.03, 0.01, 3000, now())`,
        [userId, btcPair],
      );
      const { rows: orders } = await db.query<{ id: number }>(
        `INSERT INTO spot_order (order_no, user_id, book, position_type, product_id, currency_id,
           direction, order_type, limit_price, quantity, status, fee, request_id, request_hash, created_at)
         VALUES ('B1', $1, 'live', 3, $2, 3, 2, 2, 110000, 0.01, 0, 1.1, 'req-1', 'h', now())
         RETURNING id`,
        [userId, btcPair],
      );

      expect(
        await migrate(
          db,
          all.filter((migration) => migration.version <= 14),
        ),
      ).toEqual(['0014_move_bibi_coins_to_ledger']);
      const balances = await ledger.userBalances(db, 'live', userId);
      expect(balances.find((line) => line.currencyId === 4)).toEqual({
        currencyId: 4,
        available: '0.02',
        frozen: '0.01',
      });
      const { rows: held } = await db.query<{ hold_id: number; amount: string; status: string }>(
        `SELECT o.hold_id, h.amount::text AS amount, h.status FROM spot_order o
         JOIN ledger_hold h ON h.id = o.hold_id WHERE o.id = $1`,
        [orders[0]!.id],
      );
      expect(held[0]).toMatchObject({ status: 'pending' });
      expect(Number(held[0]!.amount)).toBe(0.01);
      const { rows: holding } = await db.query<{
        quantity: string;
        frozen_quantity: string;
        cost: string;
      }>(
        `SELECT quantity::text, frozen_quantity::text, cost::text FROM holding WHERE user_id = $1`,
        [userId],
      );
      // The holding keeps the cost of what coin to coin bought, nothing frozen any more.
      expect(holding[0]).toMatchObject({ frozen_quantity: '0.000000000000000000' });
      expect(Number(holding[0]!.cost)).toBe(3000);
      const { rows: types } = await db.query<{ product_code: string; position_types: number[] }>(
        'SELECT product_code, position_types FROM product ORDER BY sort',
      );
      expect(types).toEqual([
        { product_code: 'BTCUSDT', position_types: [0, 1, 2, 3] },
        { product_code: 'XRPUSDT', position_types: [0, 1, 2] },
      ]);
      expect((await verifyLedger(db)).problems).toEqual([]);
    } finally {
      await database.dispose();
    }
  });
});
