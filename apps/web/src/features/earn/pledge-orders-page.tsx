/**
 * Staking orders (/pages/pledge/orders): every stake with its state and figures, its interest
 * records, and redemption (any time when flexible, with the penalty quoted first when fixed).
 */
import { useTranslation } from '../../i18n/react';
import { OrdersScreen } from './earn-screens';

export default function PledgeOrdersPage() {
  const { t } = useTranslation();
  return <OrdersScreen kind="staking" title={t('earn_pledgeOrders')} testId="pledge-orders-page" />;
}
