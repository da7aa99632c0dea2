/**
 * New shares and new coins (/pages/newShares/newShares): offerings by tab (upcoming, open —
 * subscribing or waiting for the allocation —, listed) for US stocks or crypto, each with its
 * price, lots, window and a countdown to its next step by the server's clock; the link to the
 * user's subscriptions. `?tab=` and `?productType=` open a tab and a type directly.
 */
import { useCallback } from 'react';
import { useSearchParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { ChoiceRow } from '../../components/choice-row';
import { PageHeader } from '../../components/page-header';
import { EmptyState, ErrorState, ListSkeleton, Refreshable } from '../../components/status-views';
import { useUser } from '../../hooks/use-user';
import { useTranslation } from '../../i18n/react';
import { navigateTo } from '../../lib/navigation';
import { newShareKeys, useOfferings, type NewShareType, type OfferingTab } from './api';
import { HistoryLink, OfferingCard, useServerNow } from './new-shares-parts';

const TABS: readonly OfferingTab[] = ['upcoming', 'open', 'listed'];
const TAB_KEY: Record<OfferingTab, string> = {
  upcoming: 'newShares_tabUpcoming',
  open: 'newShares_tabOpen',
  listed: 'newShares_tabListed',
};
const TYPES: readonly NewShareType[] = [1, 2];
const TYPE_KEY: Record<NewShareType, string> = {
  1: 'newShares_typeStock',
  2: 'newShares_typeCrypto',
};

function OfferingList({ productType, tab }: { productType: NewShareType; tab: OfferingTab }) {
  const { t } = useTranslation();
  const { signedIn } = useUser();
  const queryClient = useQueryClient();
  const offerings = useOfferings(productType, tab, signedIn);
  const now = useServerNow();
  const refresh = () => offerings.refetch();
  const onDue = useCallback(
    () => void queryClient.invalidateQueries({ queryKey: newShareKeys.offerings }),
    [queryClient],
  );
  if (offerings.isPending) return <ListSkeleton rows={3} />;
  if (offerings.isError)
    return (
      <Refreshable onRefresh={refresh}>
        <ErrorState onRetry={() => void refresh()} />
      </Refreshable>
    );
  if (offerings.data.length === 0)
    return (
      <Refreshable onRefresh={refresh}>
        <EmptyState
          testId="new-shares-empty"
          title={t('newShares_none')}
          text={t(`newShares_noneText_${tab}`)}
        />
      </Refreshable>
    );
  return (
    <Refreshable onRefresh={refresh}>
      <div className="card-list">
        <ul className="card-items" data-testid="new-shares-list">
          {offerings.data.map((offering) => (
            <OfferingCard
              key={offering.id}
              offering={offering}
              now={now}
              onDue={onDue}
              onOpen={() => navigateTo('newShareDetail', { id: offering.id })}
            />
          ))}
        </ul>
      </div>
    </Refreshable>
  );
}

export default function NewSharesPage() {
  const { t } = useTranslation();
  const [search, setSearch] = useSearchParams();
  const tab = TABS.find((entry) => entry === search.get('tab')) ?? 'open';
  const productType = TYPES.find((entry) => String(entry) === search.get('productType')) ?? 1;
  const choose = (next: { tab?: OfferingTab; productType?: NewShareType }) =>
    setSearch(
      { tab: next.tab ?? tab, productType: String(next.productType ?? productType) },
      { replace: true },
    );
  return (
    <div className="page" data-testid="new-shares-page">
      <PageHeader title={t('newShares_title')} right={<HistoryLink />} />
      <div className="ns-switches">
        <ChoiceRow
          className="segmented ns-types"
          label={t('newShares_type')}
          options={TYPES}
          value={productType}
          onChange={(next) => choose({ productType: next })}
          text={(value) => t(TYPE_KEY[value])}
          testId="new-shares-type"
        />
      </div>
      <ChoiceRow
        tabs
        className="market-tabs"
        label={t('newShares_title')}
        options={TABS}
        value={tab}
        onChange={(next) => choose({ tab: next })}
        text={(value) => t(TAB_KEY[value])}
        optionTestId="new-shares-tab"
      />
      <div role="tabpanel">
        <p className="ns-intro">{t('newShares_intro')}</p>
        <OfferingList productType={productType} tab={tab} />
      </div>
    </div>
  );
}
