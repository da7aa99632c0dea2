/**
 * Staking in a product (/pages/pledge/buy?id=…): its terms, the amount and the confirm sheet with
 * the interest the shared function works out (over the term, or per day when flexible).
 */
import { useTranslation } from '../../i18n/react';
import { BuyScreen } from './earn-screens';

export default function PledgeBuyPage() {
  const { t } = useTranslation();
  return <BuyScreen kind="staking" title={t('earn_stakeTitle')} testId="pledge-buy-page" />;
}
