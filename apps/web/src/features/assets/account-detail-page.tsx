/**
 * The wallet tab (accountDetail): total assets valued in the trade currency at live prices, and
 * every platform currency's available, frozen and total balance. Demo accounts are badged and
 * told that their funds are virtual: they get exchange and records, not deposit and withdrawal.
 */
import { FileOutline, LoopOutline, ReceivePaymentOutline, SendOutline } from 'antd-mobile-icons';
import { useTranslation } from '../../i18n/react';
import { DemoBadge } from '../../components/demo-account';
import { EntryGrid, type ScreenEntry } from '../../components/entry-grid';
import { RequireSignIn } from '../../components/require-sign-in';
import { Refreshable } from '../../components/status-views';
import { usePageConfig } from '../../hooks/use-page-config';
import { BalanceTable, TotalAssets, useAssets } from './assets-summary';

/** Each entry with its page-config module; demo accounts cannot pay in or out. */
const ENTRIES: (ScreenEntry & { module: string; live?: true })[] = [
  {
    route: 'recharge',
    label: 'area_recharge',
    icon: <ReceivePaymentOutline />,
    module: 'recharge',
    live: true,
  },
  {
    route: 'withdraw',
    label: 'area_withdraw',
    icon: <SendOutline />,
    module: 'withdraw',
    live: true,
  },
  { route: 'exchange', label: 'area_exchange', icon: <LoopOutline />, module: 'exchange' },
  { route: 'accountRecord', label: 'area_records', icon: <FileOutline />, module: 'records' },
];

export default function AccountDetailPage() {
  const { t } = useTranslation();
  const visible = usePageConfig('pages/user/accountDetail');
  const assets = useAssets();
  return (
    <RequireSignIn>
      <div className="page" data-testid="wallet-page">
        <header className="home-header">
          <h1 className="nav-title" style={{ fontSize: 20 }}>
            {t('tab_wallet')}
          </h1>
          {assets.demo && <DemoBadge />}
        </header>
        <Refreshable onRefresh={assets.refresh}>
          <div className="page-body stack">
            {visible('total') && <TotalAssets assets={assets} />}
            <EntryGrid
              entries={ENTRIES.filter(
                (entry) => visible(entry.module) && !(assets.demo && entry.live),
              )}
            />
            <BalanceTable assets={assets} />
          </div>
        </Refreshable>
      </div>
    </RequireSignIn>
  );
}
