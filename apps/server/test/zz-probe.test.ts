import { it, expect, vi } from 'vitest';
import { ManualClock } from '../src/lib/clock';
import { SimulatedFeed, simulatedParams } from '../src/market/simulated';
import { DEFAULT_CATALOGUE } from '../src/market/catalogue';
it('probe', async () => {
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
  const clock = new ManualClock(new Date('2026-11-18T15:00:00Z'));
  const p = simulatedParams(DEFAULT_CATALOGUE.find((x) => x.code === 'BTCUSDT')!);
  const feed = new SimulatedFeed({ seed: 's', clock, params: [p], tickIntervalMs: 100 });
  const ticks: unknown[] = [];
  await feed.start([{ productType: 2, productCode: 'BTCUSDT', sourceSymbol: 'BTCUSDT', priceScale: 2 }], { onTick: (t) => ticks.push(t) });
  clock.advance(300);
  expect(() => vi.advanceTimersByTime(100)).not.toThrow();
  console.log(ticks);
  vi.useRealTimers();
});
