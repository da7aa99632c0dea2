/**
 * Home's total of assets: the one valuation the server computes (the same answer me and the
 * wallet show), with the time of its prices and the assets it leaves unpriced. Loaded after the
 * first screen has painted, with the code that keeps it current (the first screen is budgeted).
 */
import { useTranslation } from '../../i18n/react';
import { useValuation } from '../../lib/balances';
import { getOtherValue } from '../../lib/storage';
import { TotalAssetsFigure } from '../../components/total-assets';

export function HomeTotal({ book }: { book: number | undefined }) {
  // Drawn again when the language changes.
  useTranslation();
  const valuation = useValuation(book).data;
  const { app_decimal_no: decimals } = getOtherValue();
  return <TotalAssetsFigure valuation={valuation} decimals={decimals} testId="home-balance" />;
}
