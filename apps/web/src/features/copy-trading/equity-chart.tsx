/**
 * A lead trader's equity curve (TradingView's lightweight-charts, like the market's candles): the
 * chained equity index 1·Π(1 + r) after each close, as the server computes it from the trader's
 * own closed positions. The chart needs numbers to draw; the axis and the legend show the index
 * as a return ("+12.34%"), so what the user reads is the figure the profile states elsewhere.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import {
  AreaSeries,
  ColorType,
  CrosshairMode,
  LineStyle,
  createChart,
  type UTCTimestamp,
} from 'lightweight-charts';
import { currentLanguage } from '../../i18n';
import { useTranslation } from '../../i18n/react';
import { Num } from '../../components/status-views';
import { chartPoints, indexReturnText, type CurvePoint } from './figures';

const UP = '#22c55e';
const DOWN = '#ff4d4f';

/** The colour of a return as shown: "+1.00%" up, "-1.00%" down, "0.00%" none. */
function toneClass(text: string): string | undefined {
  return text.startsWith('+') ? 'ct-up' : text.startsWith('-') ? 'ct-down' : undefined;
}

/** A chart time (seconds) as a date in the app's language. */
function chartDate(seconds: number): string {
  return new Intl.DateTimeFormat(currentLanguage().bcp47, {
    month: '2-digit',
    day: '2-digit',
  }).format(new Date(seconds * 1000));
}

export function EquityChart({ points, height = 200 }: { points: CurvePoint[]; height?: number }) {
  const { t } = useTranslation();
  const container = useRef<HTMLDivElement>(null);
  const data = useMemo(() => chartPoints(points), [points]);
  const [legend, setLegend] = useState<{ time: number; value: number } | undefined>();
  const shown = legend ?? data[data.length - 1];

  useEffect(() => {
    const element = container.current;
    if (!element || data.length === 0) return;
    const rising = (data[data.length - 1]?.value ?? 1) >= 1;
    const color = rising ? UP : DOWN;
    const chart = createChart(element, {
      height,
      autoSize: true,
      layout: {
        background: { type: ColorType.Solid, color: '#1b1b23' },
        textColor: '#9a9aab',
        attributionLogo: false,
      },
      grid: { vertLines: { visible: false }, horzLines: { color: '#252530' } },
      crosshair: { mode: CrosshairMode.Magnet },
      handleScroll: false,
      handleScale: false,
      localization: {
        timeFormatter: (time: number) => chartDate(time),
        priceFormatter: (value: number) => indexReturnText(value),
      },
      rightPriceScale: { borderColor: '#2e2e3a' },
      timeScale: {
        borderColor: '#2e2e3a',
        fixLeftEdge: true,
        fixRightEdge: true,
        tickMarkFormatter: (time: number) => chartDate(time),
      },
    });
    const series = chart.addSeries(AreaSeries, {
      lineColor: color,
      topColor: `${color}55`,
      bottomColor: `${color}05`,
      lineWidth: 2,
      priceLineVisible: false,
      lastValueVisible: false,
    });
    series.setData(data.map((point) => ({ time: point.time as UTCTimestamp, value: point.value })));
    // The start: no gain, no loss.
    series.createPriceLine({
      price: 1,
      color: '#9a9aab',
      lineWidth: 1,
      lineStyle: LineStyle.Dashed,
      axisLabelVisible: false,
    });
    chart.timeScale().fitContent();
    element.dataset.points = String(data.length);
    chart.subscribeCrosshairMove((param) => {
      const time = typeof param.time === 'number' ? param.time : undefined;
      setLegend(data.find((point) => point.time === time));
    });
    return () => chart.remove();
  }, [data, height]);

  if (data.length === 0)
    return (
      <div className="ct-chart-empty muted" data-testid="copy-equity-empty" style={{ height }}>
        {t('copy_noCurve')}
      </div>
    );
  return (
    <div className="ct-chart" data-testid="copy-equity-chart">
      <div className="chart-legend ct-chart-legend">
        {shown && (
          <>
            <Num>{chartDate(shown.time)}</Num>
            <Num className={toneClass(indexReturnText(shown.value))}>
              {indexReturnText(shown.value)}
            </Num>
          </>
        )}
      </div>
      <div ref={container} style={{ height }} />
    </div>
  );
}
