/**
 * One 30-day chart of the dashboard: a line per kind of trading (volume or fees per UTC day), with
 * TradingView's lightweight-charts (the web app's chart library), loaded with this module only.
 * The library plots floating-point numbers: the decimal texts become numbers here, for the
 * drawing alone; every figure the console states stays the server's decimal text.
 */
import { useEffect, useRef } from 'react';
import { ColorType, LineSeries, createChart, type AutoscaleInfo } from 'lightweight-charts';
import { useTranslation } from 'react-i18next';
import { formatAmount, languageByKey, type DashboardTradingSeries } from '@bourse/shared';

export default function TradingChart({
  series,
  field,
  colors,
  height,
  testId,
}: {
  series: DashboardTradingSeries[];
  field: 'volume' | 'fees';
  colors: readonly string[];
  height: number;
  testId: string;
}) {
  const container = useRef<HTMLDivElement>(null);
  const { i18n } = useTranslation();
  const language = languageByKey(i18n.language)?.bcp47 ?? 'en';

  // One chart per set of figures (they change at most every 15 s): made, filled, and removed
  // whole, so no series outlives its chart.
  useEffect(() => {
    if (!container.current) return;
    const chart = createChart(container.current, {
      height,
      autoSize: true,
      layout: {
        background: { type: ColorType.Solid, color: '#ffffff' },
        textColor: 'rgba(0, 0, 0, 0.65)',
        attributionLogo: false,
      },
      grid: { vertLines: { color: '#f5f5f5' }, horzLines: { color: '#f0f0f0' } },
      rightPriceScale: { borderVisible: false },
      timeScale: { borderVisible: false, fixLeftEdge: true, fixRightEdge: true },
      handleScroll: false,
      handleScale: false,
      localization: {
        locale: language,
        priceFormatter: (value: number) => formatAmount(value.toFixed(2), { decimals: 2 }),
      },
    });
    for (const row of series) {
      const line = chart.addSeries(LineSeries, {
        color: colors[row.positionType] ?? '#999',
        lineWidth: 2,
        priceLineVisible: false,
        lastValueVisible: false,
        // Volumes and fees are never negative: the scale starts at zero.
        autoscaleInfoProvider: (original: () => AutoscaleInfo | null) => {
          const range = original()?.priceRange;
          return { priceRange: { minValue: 0, maxValue: Math.max(range?.maxValue ?? 0, 1) } };
        },
      });
      line.setData(row.days.map((day) => ({ time: day.day, value: Number(day[field]) })));
    }
    chart.timeScale().fitContent();
    return () => chart.remove();
  }, [series, field, colors, height, language]);

  return <div ref={container} style={{ height }} data-testid={testId} />;
}
