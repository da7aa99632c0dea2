/**
 * The quote list component as a page (/components/m-quolist/m-quolist): the popular products,
 * live, as every home layout shows them.
 */
import { useTranslation } from '../../i18n/react';
import { PageHeader } from '../../components/page-header';
import { RecommendedProducts } from './recommended-products';

export default function QuoteListComponentPage() {
  const { t } = useTranslation();
  return (
    <div className="page" data-testid="quote-list-component-page">
      <PageHeader title={t('market_recommended')} />
      <div className="page-body stack">
        <RecommendedProducts />
      </div>
    </div>
  );
}
