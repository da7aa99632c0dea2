/**
 * Candlesticks with volume and moving averages (TradingView's lightweight-charts), the crosshair's
 * values above, the last candle growing live from the `kline:` topic, and older candles loaded as
 * the user scrolls back in time. Volume has its own pane under the candles, so its bars never
 * cover them. The chart needs numbers to draw; every figure it shows (axis, legend) is formatted
 * like the price: the product's decimals and the thousands separator.
 */
import { useEffect, useRef, useState } from 'react';
import {
  CandlestickSeries,
  ColorType,
  CrosshairMode,
  HistogramSeries,
  LineSeries,
  createChart,
  type IChartApi,
  type ISeriesApi,
  type UTCTimestamp,
} from 'lightweight-charts';
import { useTranslation } from '../../i18n/react';
import { abs, cmp, div, formatAmount, isDecimalString, type ProductType } from '@bourse/shared';
import { fetchKline, type Candle, type CandleInterval } from '../../api/market';
import { currentLanguage } from '../../i18n';
import { subscribe } from '../../lib/realtime';

const MOVING_AVERAGES = [
  { length: 5, color: '#f1a802' },
  { length: 10, color: '#2979ff' },
  { length: 30, color: '#c084fc' },
] as const;

const UP = '#22c55e';
const DOWN = '#ff4d4f';

const toTime = (openTime: number) => (openTime / 1000) as UTCTimestamp;

/** A chart time (seconds) in the user's zone and the app's language: clock time, or the date. */
function localTime(seconds: number, withClock: boolean): string {
  return new Intl.DateTimeFormat(
    currentLanguage().bcp47,
    withClock
      ? { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }
      : { month: '2-digit', day: '2-digit' },
  ).format(new Date(seconds * 1000));
}

/** A chart number as the app shows prices: `decimals` places, thousands separated. */
export function chartFigure(value: number, decimals: number): string {
  if (!Number.isFinite(value)) return '';
  return formatAmount(value.toFixed(decimals), { decimals });
}

/**
 * A volume as text: whole units thousands separated, small ones with up to 4 decimals, large ones
 * in K, M or B. Worked on the decimal string (the legend's volume comes from the feed as one); the
 * axis hands the chart's own number, made text at its full precision first.
 */
export function volumeFigure(value: number | string): string {
  const text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : value;
  if (!isDecimalString(text)) return '';
  const size = abs(text);
  for (const [unit, suffix] of [
    ['1000000000', 'B'],
    ['1000000', 'M'],
    ['10000', 'K'],
  ] as const) {
    if (cmp(size, unit) >= 0) {
      const divisor = suffix === 'K' ? '1000' : unit;
      return `${formatAmount(div(text, divisor, 2), { decimals: 2 })}${suffix}`;
    }
  }
  const decimals = cmp(size, '100') >= 0 ? 0 : 4;
  return formatAmount(text, { decimals });
}

function movingAverage(candles: readonly Candle[], length: number) {
  const points: { time: UTCTimestamp; value: number }[] = [];
  let sum = 0;
  for (let index = 0; index < candles.length; index++) {
    sum += Number(candles[index]!.close);
    if (index >= length) sum -= Number(candles[index - length]!.close);
    if (index >= length - 1)
      points.push({ time: toTime(candles[index]!.openTime), value: sum / length });
  }
  return points;
}

/** The chart's place while its product loads: the same height, so nothing below it moves. */
export function CandleChartPlaceholder({ height = 320 }: { height?: number }) {
  const { t } = useTranslation();
  return (
    <div className="candle-chart" aria-busy="true">
      <div className="chart-legend">
        <span className="muted">{t('common_loading')}</span>
      </div>
      <div style={{ height }} />
    </div>
  );
}

export function CandleChart({
  productType,
  productCode,
  interval,
  priceScale,
  height = 320,
}: {
  productType: ProductType;
  productCode: string;
  interval: CandleInterval;
  priceScale: number;
  height?: number;
}) {
  const { t } = useTranslation();
  const container = useRef<HTMLDivElement>(null);
  const [legend, setLegend] = useState<Candle | undefined>();
  const [status, setStatus] = useState<'loading' | 'ready' | 'empty'>('loading');
  const [loaded, setLoaded] = useState(0);

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const chart: IChartApi = createChart(element, {
      height,
      autoSize: true,
      layout: {
        background: { type: ColorType.Solid, color: '#121218' },
        textColor: '#9a9aab',
        attributionLogo: false,
        panes: { separatorColor: '#2e2e3a', separatorHoverColor: '#3a3a48' },
      },
      grid: { vertLines: { color: '#1f1f29' }, horzLines: { color: '#1f1f29' } },
      crosshair: { mode: CrosshairMode.Normal },
      // Times in the user's own zone (the chart's own labels are UTC).
      localization: { timeFormatter: (time: number) => localTime(time, true) },
      rightPriceScale: { borderColor: '#2e2e3a' },
      timeScale: {
        borderColor: '#2e2e3a',
        timeVisible: !['1d', '1w', '1M'].includes(interval),
        tickMarkFormatter: (time: number) =>
          localTime(time, !['1d', '1w', '1M'].includes(interval)),
      },
    });
    const precision = {
      type: 'custom' as const,
      minMove: 1 / 10 ** priceScale,
      formatter: (price: number) => chartFigure(price, priceScale),
    };
    const candlesSeries: ISeriesApi<'Candlestick'> = chart.addSeries(CandlestickSeries, {
      upColor: UP,
      downColor: DOWN,
      borderVisible: false,
      wickUpColor: UP,
      wickDownColor: DOWN,
      priceFormat: precision,
      // The last price is in the legend and on its dashed line: a tag on the axis would hide the
      // axis label under it.
      lastValueVisible: false,
    });
    candlesSeries.priceScale().applyOptions({ scaleMargins: { top: 0.08, bottom: 0.06 } });
    // Volume in a pane of its own under the candles (a fifth of the height): its bars never
    // reach the candles, whatever the prices do.
    const volumeSeries = chart.addSeries(
      HistogramSeries,
      {
        priceFormat: { type: 'custom', minMove: 0.0001, formatter: volumeFigure },
        lastValueVisible: false,
        priceLineVisible: false,
      },
      1,
    );
    volumeSeries.priceScale().applyOptions({ scaleMargins: { top: 0.15, bottom: 0 } });
    const [pricePane, volumePane] = chart.panes();
    pricePane?.setStretchFactor(4);
    volumePane?.setStretchFactor(1);
    element.dataset.volumePane = String(volumeSeries.getPane().paneIndex());
    element.dataset.candlePane = String(candlesSeries.getPane().paneIndex());
    const averages = MOVING_AVERAGES.map(({ color }) =>
      chart.addSeries(LineSeries, {
        color,
        lineWidth: 1,
        priceLineVisible: false,
        lastValueVisible: false,
        crosshairMarkerVisible: false,
        priceFormat: precision,
      }),
    );

    /** Every candle known, oldest first, by open time. */
    let candles: Candle[] = [];
    /**
     * Whether the newest candles have been read. Until then the chart may hold only the live
     * candle the topic brought first, whose left edge is no reason to ask for older ones.
     */
    let latestLoaded = false;
    let loadingOlder = false;
    let exhausted = false;
    let disposed = false;

    const draw = () => {
      candlesSeries.setData(
        candles.map((candle) => ({
          time: toTime(candle.openTime),
          open: Number(candle.open),
          high: Number(candle.high),
          low: Number(candle.low),
          close: Number(candle.close),
        })),
      );
      volumeSeries.setData(
        candles.map((candle) => ({
          time: toTime(candle.openTime),
          value: Number(candle.volume),
          color: Number(candle.close) >= Number(candle.open) ? `${UP}66` : `${DOWN}66`,
        })),
      );
      MOVING_AVERAGES.forEach(({ length }, index) =>
        averages[index]!.setData(movingAverage(candles, length)),
      );
      // What a test or a curious user can ask the chart: how many candles it holds.
      element.dataset.candles = String(candles.length);
      setLoaded(candles.length);
    };

    const merge = (more: readonly Candle[]) => {
      const byTime = new Map(candles.map((candle) => [candle.openTime, candle]));
      for (const candle of more) byTime.set(candle.openTime, candle);
      candles = [...byTime.values()].sort((a, b) => a.openTime - b.openTime);
    };

    const loadLatest = async () => {
      const latest = await fetchKline(productType, productCode, interval).catch(() => undefined);
      if (disposed) return;
      if (latest) {
        merge(latest);
        latestLoaded = true;
      }
      draw();
      setStatus(candles.length > 0 ? 'ready' : 'empty');
      setLegend(candles[candles.length - 1]);
    };

    const loadOlder = async () => {
      if (!latestLoaded || loadingOlder || exhausted || candles.length === 0) return;
      loadingOlder = true;
      const older = await fetchKline(
        productType,
        productCode,
        interval,
        candles[0]!.openTime,
      ).catch(() => []);
      loadingOlder = false;
      if (disposed) return;
      const range = chart.timeScale().getVisibleLogicalRange();
      const first = candles[0]!.openTime;
      merge(older);
      // The candles that came in before the first one shown: the view moves by these, not by
      // the length of the answer (a candle already held moves nothing; a shift by more than came
      // in scrolled the view past the newest candles, leaving only one or two of them in sight).
      const added = candles.findIndex((candle) => candle.openTime === first);
      if (added <= 0) {
        exhausted = true;
        return;
      }
      draw();
      // Keep the view where it was while the older candles slide in on the left.
      if (range) {
        chart.timeScale().setVisibleLogicalRange({
          from: range.from + added,
          to: range.to + added,
        });
      }
    };

    void loadLatest();
    chart.timeScale().subscribeVisibleLogicalRangeChange((range) => {
      if (range && range.from < 10) void loadOlder();
    });
    chart.subscribeCrosshairMove((param) => {
      const time = typeof param.time === 'number' ? param.time * 1000 : undefined;
      const hovered = time === undefined ? undefined : candles.find((c) => c.openTime === time);
      setLegend(hovered ?? candles[candles.length - 1]);
    });

    const stop = subscribe(
      `kline:${productType}:${productCode}:${interval}`,
      (data) => {
        const { candle } = data as { candle: Candle };
        const last = candles[candles.length - 1];
        if (last && candle.openTime < last.openTime) return;
        merge([candle]);
        candlesSeries.update({
          time: toTime(candle.openTime),
          open: Number(candle.open),
          high: Number(candle.high),
          low: Number(candle.low),
          close: Number(candle.close),
        });
        volumeSeries.update({
          time: toTime(candle.openTime),
          value: Number(candle.volume),
          color: Number(candle.close) >= Number(candle.open) ? `${UP}66` : `${DOWN}66`,
        });
        setLegend((current) =>
          !current || current.openTime === last?.openTime || current.openTime === candle.openTime
            ? candle
            : current,
        );
      },
      () => void loadLatest(),
    );

    return () => {
      disposed = true;
      stop();
      chart.remove();
    };
  }, [productType, productCode, interval, priceScale, height]);

  return (
    <div className="candle-chart" data-testid="candle-chart">
      <div className="chart-legend" data-testid="chart-legend">
        {legend ? (
          <>
            {(
              [
                ['market_open', legend.open],
                ['market_high', legend.high],
                ['market_low', legend.low],
                ['market_close', legend.close],
              ] as const
            ).map(([label, value]) => (
              <span key={label}>
                {t(label)} {formatAmount(value, { decimals: priceScale })}
              </span>
            ))}
            <span data-testid="legend-volume">
              {t('market_volume')} {volumeFigure(legend.volume)}
            </span>
            <span className="ma-key">
              {MOVING_AVERAGES.map(({ length, color }) => (
                <span key={length} style={{ color }}>
                  MA{length}
                </span>
              ))}
            </span>
          </>
        ) : (
          <span className="muted">
            {status === 'empty' ? t('common_noData') : t('common_loading')}
          </span>
        )}
      </div>
      <div
        ref={container}
        style={{ height }}
        data-testid="chart-canvas"
        aria-busy={status === 'loading' || undefined}
        data-loaded={loaded}
      />
    </div>
  );
}
