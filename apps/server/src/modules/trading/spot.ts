/**
 * Spot (position type 2: US stocks and crypto) and coin-to-coin (3: crypto) orders and holdings.
 * TO BE WRITTEN (see the helper's brief): market and limit buys and sells, holdings with average
 * cost, resting limits that freeze funds (buys, a ledger hold) or quantity (sells, in the holding).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/database';
import type { Clock } from '../../lib/clock';
import type { MarketEngine } from '../../market/engine';
import type { SettingsService } from '../settings/service';
import type { Notify } from './common';
import type { FiredTick, Trigger, TriggerEngine, TriggerOutcome, TriggerOwner } from './triggers';

export interface SpotDeps {
  db: Database;
  clock: Clock;
  settings: SettingsService;
  market: MarketEngine;
  triggers: TriggerEngine;
  logger: FastifyBaseLogger;
  notify?: Notify;
}

export class SpotTrading implements TriggerOwner {
  constructor(private readonly deps: SpotDeps) {
    deps.triggers.register('spot', this);
  }

  async load(): Promise<Trigger[]> {
    return [];
  }

  async fire(triggers: Trigger[], _tick: FiredTick): Promise<Map<string, TriggerOutcome>> {
    return new Map(triggers.map((trigger) => [trigger.key, 'keep' as const]));
  }
}
