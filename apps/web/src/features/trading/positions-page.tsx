/**
 * Positions (contractPosition): tabs for fast trades, contracts and spot (`?tab=`). The fast tab
 * shows the market feature's recent fast trades and their countdown, which the app hands in.
 */
import { Suspense, useState, type ComponentType } from 'react';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { FastTradeOrder } from '@bourse/shared';
import { PageHeader } from '../../components/page-header';
import { RequireSignIn } from '../../components/require-sign-in';
import { ContractPositions } from './contract-positions';
import { useBook, useTradingPush } from './hooks';
import { SpotHoldings } from './spot-holdings';

/** The fast-trade list and countdown of the market feature. */
export interface FastTradeParts {
  List: ComponentType<{ book: number | undefined; onOpen: (order: FastTradeOrder) => void }>;
  Popup: ComponentType<{ order: FastTradeOrder | undefined; onClose: () => void }>;
}

type Tab = 'fast' | 'contract' | 'spot';
const TABS: { tab: Tab; label: string }[] = [
  { tab: 'fast', label: 'fast_title' },
  { tab: 'contract', label: 'trade_contractTitle' },
  { tab: 'spot', label: 'trade_spotTitle' },
];

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
  const { t } = useTranslation();
  const [search, setSearch] = useSearchParams();
  const tabs = TABS.filter((entry) => entry.tab !== 'fast' || fast);
  const asked = search.get('tab');
  const tab = tabs.find((entry) => entry.tab === asked)?.tab ?? 'contract';
  return (
    <RequireSignIn>
      <div className="page" data-testid="positions-page">
        <PageHeader title={t('position_title')} />
        <div className="market-tabs" role="tablist" aria-label={t('position_title')}>
          {tabs.map((entry) => (
            <button
              key={entry.tab}
              type="button"
              role="tab"
              aria-selected={entry.tab === tab}
              data-testid={`positions-tab-${entry.tab}`}
              onClick={() => setSearch({ tab: entry.tab }, { replace: true })}
            >
              {t(entry.label)}
            </button>
          ))}
        </div>
        <div className="positions-body">
          {tab === 'fast' && fast && <FastTrades parts={fast} />}
          {tab === 'contract' && <ContractPositions />}
          {tab === 'spot' && <SpotHoldings />}
        </div>
      </div>
    </RequireSignIn>
  );
}
