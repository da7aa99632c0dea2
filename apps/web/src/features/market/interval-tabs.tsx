import { useTranslation } from '../../i18n/react';
import { CANDLE_INTERVALS, type CandleInterval } from '../../api/market';
import { ChoiceRow, type ChoiceRowProps } from '../../components/choice-row';

/** The candle intervals, as tabs. */
export function IntervalTabs(props: Pick<ChoiceRowProps<CandleInterval>, 'value' | 'onChange'>) {
  const { t } = useTranslation();
  return (
    <ChoiceRow
      {...props}
      tabs
      as="nav"
      className="market-tabs interval-tabs"
      label={t('field_interval')}
      options={CANDLE_INTERVALS}
      text={(interval) => t(`interval_${interval}`)}
      optionTestId="interval"
    />
  );
}
