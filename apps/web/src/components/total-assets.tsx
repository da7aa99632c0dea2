/**
 * The total of assets as every screen shows it (home, me, the wallet): the server's one valuation,
 * its currency, the figure (grey while it loads, left to right in Arabic), the time of its prices
 * and the assets it could not price.
 */
import { formatAmount, type BalanceValuation } from '@bourse/shared';
import { translate } from '../i18n';
import { valuationNotes } from '../lib/balances';
import { currencyName, tradeCurrencyId } from '../lib/trade';
import { ValueSkeleton } from './status-views';

export function TotalAssetsFigure({
  valuation,
  decimals,
  testId,
}: {
  valuation: BalanceValuation | undefined;
  decimals: number;
  /** The figure's test id (home-balance, me-balance, wallet-total). */
  testId: string;
}) {
  return (
    <>
      <span className="muted">
        {translate('account_totalAssets', [
          valuation?.currencyName ?? currencyName(tradeCurrencyId()),
        ])}
      </span>
      {valuation ? (
        <span
          className="balance"
          dir="ltr"
          data-testid={testId}
          data-price-time={valuation.priceTime}
        >
          {formatAmount(valuation.userBalanceConvert, { decimals })}
        </span>
      ) : (
        <span className="balance">
          <ValueSkeleton testId={`${testId}-loading`} />
        </span>
      )}
      {valuationNotes(valuation, translate).map((note) => (
        <span key={note} className="muted" style={{ fontSize: 12 }} data-testid="total-note">
          {note}
        </span>
      ))}
    </>
  );
}
