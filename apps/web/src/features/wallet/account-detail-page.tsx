/**
 * The wallet tab (accountDetail): total assets valued in the trade currency at live prices, and
 * every platform currency's available, frozen and total balance. Demo accounts are badged and
 * told that their funds are virtual. Entries to deposit, withdraw, exchange and records appear
 * as those screens are built.
 */
import { FileOutline, LoopOutline, ReceivePaymentOutline, SendOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { ACCOUNT_TYPE } from '@bourse/shared';
import { EntryGrid, type ScreenEntry } from '../../components/entry-grid';
import { RequireSignIn } from '../../components/require-sign-in';
import { usePageConfig } from '../../hooks/use-page-config';
import { useUser } from '../../hooks/use-user';
import { getOtherValue } from '../../lib/storage';
import { BalanceTable, TotalAssets, useAssets } from './assets-summary';

const ENTRIES: ScreenEntry[] = [
  { route: 'recharge', label: 'area_recharge', icon: <ReceivePaymentOutline /> },
  { route: 'withdraw', label: 'area_withdraw', icon: <SendOutline /> },
  { route: 'exchange', label: 'area_exchange', icon: <LoopOutline /> },
  { route: 'accountRecord', label: 'area_records', icon: <FileOutline /> },
];

export default function AccountDetailPage() {
  const { t } = useTranslation();
  const { user } = useUser();
  const visible = usePageConfig('pages/user/accountDetail');
  const { app_decimal_no: decimals } = getOtherValue();
  const { rows, valuation } = useAssets(user?.accountType);
  const demo = user?.accountType === ACCOUNT_TYPE.demo;
  return (
    <RequireSignIn>
      <div className="page" data-testid="wallet-page">
        <header className="home-header">
          <h1 className="nav-title" style={{ fontSize: 20 }}>
            {t('tab_wallet')}
          </h1>
          {demo && <span className="badge-demo">{t('account_demoBadge')}</span>}
        </header>
        <div className="page-body stack">
          {visible('total') && (
            <TotalAssets valuation={valuation} decimals={decimals} demo={demo} />
          )}
          {!demo && <EntryGrid entries={ENTRIES} />}
          <BalanceTable rows={rows} decimals={decimals} />
        </div>
      </div>
    </RequireSignIn>
  );
}
