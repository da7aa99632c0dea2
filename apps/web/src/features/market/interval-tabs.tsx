import { useTranslation } from 'react-i18next';
import { CANDLE_INTERVALS, type CandleInterval } from '../../api/market';

/** The candle intervals, as tabs. */
export function IntervalTabs({
  value,
  onChange,
}: {
  value: CandleInterval;
  onChange: (interval: CandleInterval) => void;
}) {
  const { t } = useTranslation();
  return (
    <nav className="market-tabs interval-tabs" role="tablist" aria-label={t('field_interval')}>
      {CANDLE_INTERVALS.map((interval) => (
        <button
          key={interval}
          type="button"
          role="tab"
          aria-selected={value === interval}
          data-testid={`interval-${interval}`}
          onClick={() => onChange(interval)}
        >
          {t(`interval_${interval}`)}
        </button>
      ))}
    </nav>
  );
}
