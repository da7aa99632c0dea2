/** The user's favourite products, live. */
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/page-header';
import { RequireSignIn } from '../../components/require-sign-in';
import { ProductList } from './product-list';

export default function FavoritePage() {
  const { t } = useTranslation();
  return (
    <RequireSignIn>
      <div className="page market-page" data-testid="favorite-page">
        <PageHeader title={t('market_favorites')} />
        <ProductList url="/api/userProductOption/list" emptyText={t('market_noFavorites')} />
      </div>
    </RequireSignIn>
  );
}
