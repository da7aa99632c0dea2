/**
 * Lock-mining orders (/pages/lockMining/orders): every order with its state, figures and, while
 * active, early redemption with its penalty quoted first.
 */
import { useTranslation } from '../../i18n/react';
import { OrdersScreen } from './earn-screens';

export default function LockMiningOrdersPage() {
  const { t } = useTranslation();
  return (
    <OrdersScreen
      kind="financial"
      title={t('earn_lockMiningOrders')}
      testId="lock-mining-orders-page"
    />
  );
}
