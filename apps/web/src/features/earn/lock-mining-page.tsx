/**
 * Lock mining (/pages/lockMining/lockMining): the user's figures (amount held, interest paid so far,
 * the next day's interest, orders), the first products and the ways to all products and the orders.
 */
import { useTranslation } from '../../i18n/react';
import { LockMiningHome } from './earn-screens';

export default function LockMiningPage() {
  const { t } = useTranslation();
  return <LockMiningHome title={t('area_lockMining')} />;
}
