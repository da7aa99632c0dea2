/**
 * Lock-mining products (/pages/lockMining/lockMiningProductList): every product open to new
 * orders, each with its published daily rate, term, smallest amount and how it pays.
 */
import { PageHeader } from '../../components/page-header';
import { useTranslation } from '../../i18n/react';
import { OrdersLink, ProductList } from './earn-screens';

export default function LockMiningProductsPage() {
  const { t } = useTranslation();
  return (
    <div className="page" data-testid="lock-mining-products-page">
      <PageHeader title={t('earn_lockMiningProducts')} right={<OrdersLink kind="financial" />} />
      <div className="page-body stack">
        <p className="er-intro">{t('earn_lockMiningIntro')}</p>
        <ProductList kind="financial" />
      </div>
    </div>
  );
}
