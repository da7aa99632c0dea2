/**
 * Positions (contractPosition): tabs for fast trades, contracts and spot (`?tab=`). The fast tab
 * shows the market feature's recent fast trades and their countdown, which the app hands in.
 */
import { Suspense, useState, type ComponentType } from 'react';
import { useSearchParams } from 'react-router';
import { useTranslation } from '../../i18n/react';
import type { FastTradeOrder } from '@bourse/shared';
import { ChoiceRow } from '../../components/choice-row';
import { PageHeader } from '../../components/page-header';
import { RequireSignIn } from '../../components/require-sign-in';
import { Refreshable } from '../../components/status-views';
import { ContractPositions } from './contract-positions';
import { useBook, useRefreshTrading, useTradingPush } from './hooks';
import { SpotHoldings } from './spot-holdings';

/** The fast-trade list and countdown of the market feature. */
export interface FastTradeParts {
  List: ComponentType<{ book: number | undefined; onOpen: (order: FastTradeOrder) => void }>;
  Popup: ComponentType<{ order: FastTradeOrder | undefined; onClose: () => void }>;
}

type Tab = 'fast' | 'contract' | 'spot';
const TAB_LABEL: Record<Tab, string> = {
  fast: 'fast_title',
  contract: 'trade_contractTitle',
  spot: 'trade_spotTitle',
};

function FastTrades({ parts }: { parts: FastTradeParts }) {
  const book = useBook();
  const [watching, setWatching] = useState<FastTradeOrder>();
  const { List, Popup } = parts;
  return (
    <Suspense fallback={null}>
      <List book={book} onOpen={setWatching} />
      <Popup order={watching} onClose={() => setWatching(undefined)} />
    </Suspense>
  );
}

export default function PositionsPage({ fast }: { fast?: FastTradeParts }) {
  useTradingPush(useBook() !== undefined);
  const refresh = useRefreshTrading();
  const { t } = useTranslation();
  const [search, setSearch] = useSearchParams();
  const tabs: Tab[] = fast ? ['fast', 'contract', 'spot'] : ['contract', 'spot'];
  const asked = search.get('tab');
  const tab = tabs.find((entry) => entry === asked) ?? 'contract';
  return (
    <RequireSignIn>
      <div className="page" data-testid="positions-page">
        <PageHeader title={t('position_title')} />
        <ChoiceRow
          tabs
          className="market-tabs"
          label={t('position_title')}
          options={tabs}
          value={tab}
          onChange={(next) => setSearch({ tab: next }, { replace: true })}
          text={(entry) => t(TAB_LABEL[entry])}
          optionTestId="positions-tab"
        />
        <Refreshable onRefresh={refresh}>
          <div className="positions-body">
            {tab === 'fast' && fast && <FastTrades parts={fast} />}
            {tab === 'contract' && <ContractPositions />}
            {tab === 'spot' && <SpotHoldings />}
          </div>
        </Refreshable>
      </div>
    </RequireSignIn>
  );
}
