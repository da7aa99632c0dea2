/**
 * A staking product (/pages/pledge/detail?id=…): its published rate, term (or flexible),
 * compounding, bounds, payout and penalty, and the way to stake in it.
 */
import { Button } from 'antd-mobile';
import { PageHeader } from '../../components/page-header';
import { useTranslation } from '../../i18n/react';
import { navigateTo } from '../../lib/navigation';
import { OrdersLink, ProductDetail, useIdParam } from './earn-screens';

export default function PledgeDetailPage() {
  const { t } = useTranslation();
  const id = useIdParam();
  return (
    <div className="page" data-testid="pledge-detail-page">
      <PageHeader title={t('earn_productTitle')} right={<OrdersLink kind="staking" />} />
      <div className="page-body">
        <ProductDetail kind="staking" id={id}>
          {(product) => (
            <Button
              block
              color="primary"
              disabled={product.status !== 1}
              data-testid="pledge-stake"
              onClick={() => navigateTo('pledgeBuy', { id: product.id })}
            >
              {product.status !== 1 ? t('earn_closed') : t('earn_stakeNow')}
            </Button>
          )}
        </ProductDetail>
      </div>
    </div>
  );
}
