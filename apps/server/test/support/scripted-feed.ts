/** A feed that sends exactly the ticks a test (or a benchmark) gives it, crypto products only. */
import { PRODUCT_TYPE } from '@bourse/shared';
import type { FeedHandlers, FeedProduct, FeedProvider, Tick } from '../../src/market/types';

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

  /** Sends one tick of a crypto product and returns it (its sequence counts up per feed). */
  tick(productCode: string, price: string, time: number): Tick {
    this.sequence += 1;
    const tick: Tick = {
      productType: PRODUCT_TYPE.crypto,
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
