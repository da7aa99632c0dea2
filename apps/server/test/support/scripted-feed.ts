/** A feed that sends exactly the ticks a test (or a benchmark) gives it. */
import { PRODUCT_TYPE, type ProductType } from '@bourse/shared';
import type { ManualClock } from '../../src/lib/clock';
import { DEFAULT_CATALOGUE } from '../../src/market/catalogue';
import type { FeedHandlers, FeedProduct, FeedProvider, Tick } from '../../src/market/types';
import { createTestApp, type TestApp, type TestDatabase } from '../helpers';

export class ScriptedFeed implements FeedProvider {
  readonly name = 'scripted';
  readonly simulated = true;
  private handlers: FeedHandlers | undefined;
  private sequence = 0;

  async start(_products: readonly FeedProduct[], handlers: FeedHandlers): Promise<void> {
    this.handlers = handlers;
  }

  async stop(): Promise<void> {
    this.handlers = undefined;
  }

  /** Sends one tick of a product (crypto unless told) and returns it; sequences count up per feed. */
  tick(
    productCode: string,
    price: string,
    time: number,
    productType: ProductType = PRODUCT_TYPE.crypto,
  ): Tick {
    this.sequence += 1;
    const tick: Tick = {
      productType,
      productCode,
      price,
      volume: '0',
      time,
      source: 'scripted',
      sequence: this.sequence,
    };
    this.handlers!.onTick(tick);
    return tick;
  }
}

/**
 * The app on a test database with a scripted feed for the given products of the default
 * catalogue (two days of history), as the trading tests start it, also again after a restart.
 */
export async function scriptedApp(
  database: TestDatabase,
  clock: ManualClock,
  codes: readonly string[],
  seed: string,
): Promise<{ t: TestApp; feed: ScriptedFeed }> {
  const feed = new ScriptedFeed();
  const t = await createTestApp({
    database,
    clock,
    env: { MARKET_FEED: 'simulated', MARKET_SEED: seed },
    catalogue: codes.map((code) => DEFAULT_CATALOGUE.find((product) => product.code === code)!),
    history: { days: 2, minuteDays: 1 },
    feed: () => feed,
  });
  return { t, feed };
}
