/**
 * Staking products (/pages/pledge/list): fixed term or flexible, compounding or not, each with its
 * published daily rate.
 */
import { PageHeader } from '../../components/page-header';
import { useTranslation } from '../../i18n/react';
import { OrdersLink, ProductList } from './earn-screens';

export default function PledgeListPage() {
  const { t } = useTranslation();
  return (
    <div className="page" data-testid="pledge-list-page">
      <PageHeader title={t('area_pledge')} right={<OrdersLink kind="staking" />} />
      <div className="page-body stack">
        <p className="er-intro">{t('earn_pledgeIntro')}</p>
        <ProductList kind="staking" />
      </div>
    </div>
  );
}
