/** The console's copy-trading settings (site_setting `copyTrade`), with their defaults. */
import { COPY_TRADE_DEFAULTS, normalize, type CopyTradeSettings } from '@bourse/shared';
import type { Queryable } from '../../db/database';
import * as repo from './repo';

export async function copySettings(q: Queryable): Promise<CopyTradeSettings> {
  const stored = (await repo.readSettings(q)) ?? {};
  const number = (value: unknown, fallback: number) =>
    typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : fallback;
  return {
    maxProfitShareRate:
      typeof stored.maxProfitShareRate === 'string'
        ? normalize(stored.maxProfitShareRate)
        : COPY_TRADE_DEFAULTS.maxProfitShareRate,
    minClosedTrades: number(stored.minClosedTrades, COPY_TRADE_DEFAULTS.minClosedTrades),
    positionDelayMinutes: number(
      stored.positionDelayMinutes,
      COPY_TRADE_DEFAULTS.positionDelayMinutes,
    ),
  };
}
