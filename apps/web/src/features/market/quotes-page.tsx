/** Quotes (tab 1): favourites and the four markets, live. */
import { useLayoutEffect, useRef, useState } from 'react';
import { SearchOutline } from 'antd-mobile-icons';
import { useTranslation } from '../../i18n/react';
import { PRODUCT_TYPES, type ProductType } from '@bourse/shared';
import { FAVOURITES_LIST, PRODUCT_LISTS, PRODUCT_TYPE_LABEL } from '../../api/market';
import { isSignedIn } from '../../api/session';
import { ChoiceRow } from '../../components/choice-row';
import { HeaderIconButton } from '../../components/header-icon-button';
import { navigateTo } from '../../lib/navigation';
import { getItem, setItem } from '../../lib/storage';
import { ProductList } from './product-list';

type Tab = 'favorite' | ProductType;
const TAB_KEY = 'quotesTab';

export default function QuotesPage() {
  const { t } = useTranslation();
  const [tab, setTab] = useState<Tab>(() => getItem<Tab>(TAB_KEY) ?? PRODUCT_TYPES[1]!);
  const choose = (next: Tab) => {
    setTab(next);
    setItem(TAB_KEY, next);
  };
  const tabs: Tab[] = ['favorite', ...PRODUCT_TYPES];
  // The tabs scroll sideways when they do not fit (a long language, a narrow phone): the chosen
  // one is brought into view, at start and whenever it changes.
  const tabRow = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const active = tabRow.current?.querySelector<HTMLElement>('[aria-selected="true"]');
    active?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
  }, [tab]);
  return (
    <div className="page market-page" data-testid="quotes-page">
      <header className="home-header">
        <h1 className="nav-title" style={{ fontSize: 20 }}>
          {t('tab_quotes')}
        </h1>
        <span className="spacer" />
        <HeaderIconButton
          label={t('market_search')}
          testId="open-search"
          onClick={() => navigateTo('quoteSearch')}
        >
          <SearchOutline />
        </HeaderIconButton>
      </header>
      <div ref={tabRow} className="market-tabs-frame" data-testid="market-tabs">
        <ChoiceRow
          tabs
          as="nav"
          className="market-tabs"
          options={tabs}
          value={tab}
          onChange={choose}
          text={(name) => t(name === 'favorite' ? 'market_favorites' : PRODUCT_TYPE_LABEL[name])}
          optionTestId="market-tab"
        />
      </div>
      {tab === 'favorite' ? (
        isSignedIn() ? (
          <ProductList list={FAVOURITES_LIST} emptyText={t('market_noFavorites')} />
        ) : (
          <div className="page-center stack">
            <p className="muted">{t('market_signInForFavorites')}</p>
            <button type="button" className="button-primary" onClick={() => navigateTo('login')}>
              {t('account_login')}
            </button>
          </div>
        )
      ) : (
        <ProductList key={tab} list={PRODUCT_LISTS[tab]} productTypes={[tab]} />
      )}
    </div>
  );
}
