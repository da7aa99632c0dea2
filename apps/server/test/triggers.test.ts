/**
 * The trigger engine on its own: levels fire from the side they wait on, in tick order, once;
 * moved and removed levels do not fire; a level set after a tick ignores it; "keep" leaves a
 * level waiting; older or repeated ticks are ignored.
 */
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database';
import type { MarketEngine } from '../src/market/engine';
import {
  TriggerEngine,
  priceUnits,
  type FiredTick,
  type Trigger,
  type TriggerOutcome,
} from '../src/modules/trading/triggers';

function engine(outcome: (trigger: Trigger, tick: FiredTick) => TriggerOutcome = () => 'done') {
  const fired: [string, string, number][] = [];
  const triggers = new TriggerEngine({
    db: {} as Database,
    market: { onTickEvent: () => () => undefined } as unknown as MarketEngine,
    logger: pino({ level: 'silent' }),
  });
  triggers.register('test', {
    load: async () => [],
    fire: async (list, tick) => {
      for (const trigger of list) fired.push([trigger.key, tick.price, tick.sequence]);
      return new Map(list.map((trigger) => [trigger.key, outcome(trigger, tick)]));
    },
  });
  let sequence = 0;
  const tick = (price: string, time = 1000 + sequence) =>
    triggers.handle({ productId: 1, price, time, source: 'test', sequence: ++sequence });
  return { triggers, fired, tick };
}

const level = (key: string, side: Trigger['side'], price: string, extra: Partial<Trigger> = {}) =>
  ({ key, owner: 'test', productId: 1, side, price, priority: 1, since: 0, ...extra }) as Trigger;

describe('trigger engine', () => {
  it('compares prices exactly', () => {
    expect(priceUnits('1.000000000000000001') > priceUnits('1')).toBe(true);
    expect(priceUnits('0.1') === priceUnits('0.10')).toBe(true);
    expect(priceUnits('-2.5') < priceUnits('-2.4')).toBe(true);
  });

  it('fires each level once, from its side, nearest first and by priority within a tick', async () => {
    const { triggers, fired, tick } = engine();
    triggers.add(level('below-99', 'atOrBelow', '99'));
    triggers.add(level('below-98', 'atOrBelow', '98'));
    triggers.add(level('above-101', 'atOrAbove', '101'));
    triggers.add(level('liq-98', 'atOrBelow', '98', { priority: 2 }));
    triggers.add(level('entry-97', 'atOrBelow', '97', { priority: 0 }));
    await tick('100');
    expect(fired).toEqual([]);
    await tick('99');
    expect(fired.map(([key]) => key)).toEqual(['below-99']);
    await tick('96.5');
    expect(fired.map(([key]) => key)).toEqual(['below-99', 'entry-97', 'below-98', 'liq-98']);
    await tick('101.01');
    await tick('90');
    await tick('200');
    expect(fired.map(([key]) => key)).toEqual([
      'below-99',
      'entry-97',
      'below-98',
      'liq-98',
      'above-101',
    ]);
    expect(triggers.size).toBe(0);
  });

  it('ignores removed and moved levels and ticks before a level was set', async () => {
    const { triggers, fired, tick } = engine();
    triggers.add(level('a', 'atOrBelow', '99'));
    triggers.add(level('b', 'atOrBelow', '99'));
    triggers.remove('a');
    triggers.add(level('b', 'atOrBelow', '95'));
    triggers.add(level('late', 'atOrAbove', '100', { since: 5000 }));
    await tick('98', 2000);
    expect(fired).toEqual([]);
    await tick('101', 5000);
    expect(fired).toEqual([]);
    await tick('101', 5001);
    await tick('94', 5002);
    expect(fired.map(([key]) => key)).toEqual(['late', 'b']);
  });

  it('keeps a level the owner could not fire and tries it at the next tick', async () => {
    let open = false;
    const { triggers, fired, tick } = engine(() => (open ? 'done' : 'keep'));
    triggers.add(level('k', 'atOrAbove', '10'));
    await tick('11');
    await tick('12');
    open = true;
    await tick('13');
    await tick('14');
    expect(fired.map(([key, price]) => `${key}@${price}`)).toEqual(['k@11', 'k@12', 'k@13']);
    expect(triggers.size).toBe(0);
  });

  it('ignores a tick older than or the same as the last one', async () => {
    const { triggers, fired } = engine();
    triggers.add(level('x', 'atOrBelow', '50'));
    await triggers.handle({ productId: 1, price: '60', time: 2000, source: 's', sequence: 5 });
    await triggers.handle({ productId: 1, price: '40', time: 1999, source: 's', sequence: 9 });
    await triggers.handle({ productId: 1, price: '40', time: 2000, source: 's', sequence: 5 });
    expect(fired).toEqual([]);
    await triggers.handle({ productId: 1, price: '40', time: 2000, source: 's', sequence: 6 });
    expect(fired).toEqual([['x', '40', 6]]);
  });

  it('adds on refresh the levels set elsewhere, and moves those set elsewhere to a new price', async () => {
    const stored: Trigger[] = [level('a', 'atOrBelow', '99')];
    const fired: string[] = [];
    const triggers = new TriggerEngine({
      db: {} as Database,
      market: { onTickEvent: () => () => undefined } as unknown as MarketEngine,
      logger: pino({ level: 'silent' }),
    });
    triggers.register('test', {
      load: async () => stored,
      fire: async (list) => {
        fired.push(...list.map((trigger) => trigger.key));
        return new Map(list.map((trigger) => [trigger.key, 'done' as const]));
      },
    });
    expect(await triggers.refresh()).toBe(1);
    expect(await triggers.refresh()).toBe(0);
    stored[0] = level('a', 'atOrBelow', '95');
    stored.push(level('b', 'atOrAbove', '105'));
    expect(await triggers.refresh()).toBe(2);
    const tick = (price: string, sequence: number) =>
      triggers.handle({ productId: 1, price, time: 1000 + sequence, source: 't', sequence });
    await tick('98', 1);
    expect(fired).toEqual([]);
    await tick('94', 2);
    await tick('106', 3);
    expect(fired).toEqual(['a', 'b']);
  });
});
