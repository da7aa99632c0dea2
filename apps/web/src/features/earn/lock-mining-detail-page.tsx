/**
 * A lock-mining product (/pages/lockMining/detail?id=…): its published rate (or rates by amount),
 * term, bounds, capacity, payout and penalty, and the form that buys it with its confirm sheet.
 */
import { useTranslation } from '../../i18n/react';
import { BuyScreen } from './earn-screens';

export default function LockMiningDetailPage() {
  const { t } = useTranslation();
  return (
    <BuyScreen kind="financial" title={t('earn_productTitle')} testId="lock-mining-detail-page" />
  );
}
