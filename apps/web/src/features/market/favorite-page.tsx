/** The user's favourite products, live. */
import { useTranslation } from '../../i18n/react';
import { PageHeader } from '../../components/page-header';
import { RequireSignIn } from '../../components/require-sign-in';
import { FAVOURITES_LIST } from '../../api/market';
import { ProductList } from './product-list';

export default function FavoritePage() {
  const { t } = useTranslation();
  return (
    <RequireSignIn>
      <div className="page market-page" data-testid="favorite-page">
        <PageHeader title={t('market_favorites')} />
        <ProductList list={FAVOURITES_LIST} emptyText={t('market_noFavorites')} />
      </div>
    </RequireSignIn>
  );
}
