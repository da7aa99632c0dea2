/**
 * Home's total of assets: the one valuation the server computes (the same answer me and the
 * wallet show), with the time of its prices and the assets it leaves unpriced. Loaded after the
 * first screen has painted, with the code that keeps it current (the first screen is budgeted).
 */
import { useTranslation } from 'react-i18next';
import { formatAmount } from '@bourse/shared';
import { translate } from '../../i18n';
import { useValuation, valuationNotes } from '../../lib/balances';
import { getOtherValue } from '../../lib/storage';

export function HomeTotal({ book }: { book: number | undefined }) {
  // Drawn again when the language changes.
  useTranslation();
  const valuation = useValuation(book).data;
  const { app_decimal_no: decimals } = getOtherValue();
  return (
    <>
      <span className="muted">
        {translate('account_totalAssets', [valuation?.currencyName ?? 'USDT'])}
      </span>
      <span className="balance" data-testid="home-balance" data-price-time={valuation?.priceTime}>
        {formatAmount(valuation?.userBalanceConvert, { decimals })}
      </span>
      {valuationNotes(valuation, translate).map((note) => (
        <span key={note} className="muted" style={{ fontSize: 12 }} data-testid="total-note">
          {note}
        </span>
      ))}
    </>
  );
}
