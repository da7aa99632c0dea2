/** The entry and exit ticks of a trade as evidence, each a tick card where the trade has it. */
import type { TickEvidence } from '@bourse/shared';
import { TickCard, type TickCardLook } from './tick-card';

export type TickSide = 'entry' | 'exit';

export function EvidenceTicks({
  trade,
  titles,
  testId,
  priceScale,
  look,
}: {
  trade: { entry: TickEvidence | null; exit: TickEvidence | null };
  /** The titles of the entry and the exit card. */
  titles: Record<TickSide, string>;
  /** A card's test id. */
  testId: (side: TickSide) => string;
  priceScale: number;
  look: TickCardLook;
}) {
  return (['entry', 'exit'] as const).map((side) => {
    const tick = trade[side];
    return (
      tick && (
        <TickCard
          key={side}
          title={titles[side]}
          tick={tick}
          priceScale={priceScale}
          testId={testId(side)}
          look={look}
        />
      )
    );
  });
}
