/**
 * The wallet tab (accountDetail): total assets valued in the trade currency at live prices, and
 * every platform currency's available, frozen and total balance. Demo accounts are badged and
 * told that their funds are virtual. Entries to deposit, withdraw, exchange and records appear
 * as those screens are built.
 */
import { useQuery } from '@tanstack/react-query';
import { FileOutline, LoopOutline, ReceivePaymentOutline, SendOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { ACCOUNT_TYPE, formatAmount, isZero } from '@bourse/shared';
import { api } from '../../api';
import { EntryGrid, type ScreenEntry } from '../../components/entry-grid';
import { RequireSignIn } from '../../components/require-sign-in';
import { usePageConfig } from '../../hooks/use-page-config';
import { useUser } from '../../hooks/use-user';
import { translate } from '../../i18n';
import { getOtherValue } from '../../lib/storage';

interface CurrencyBalance {
  currencyId: number;
  currencyName: string;
  amount: string;
  frozenAmount: string;
  totalAmount: string;
}

interface Valuation {
  currencyName: string;
  userBalanceConvert: string;
  unpricedCurrencies: string[];
}

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
  const book = user?.accountType;
  const balances = useQuery({
    queryKey: ['balances', book],
    queryFn: () => api.get<CurrencyBalance[]>('/api/userInfo/userBalance'),
  });
  const valuation = useQuery({
    queryKey: ['personCenterPanelData', book],
    queryFn: () => api.get<Valuation>('/api/userInfo/personCenterPanelData'),
  });
  const demo = user?.accountType === ACCOUNT_TYPE.demo;
  // Currencies the user holds first, then the others.
  const rows = [...(balances.data ?? [])].sort(
    (a, b) => Number(isZero(a.totalAmount)) - Number(isZero(b.totalAmount)),
  );
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
            <section className="hero stack" style={{ gap: 4 }}>
              <span className="muted">
                {translate('account_totalAssets', [valuation.data?.currencyName ?? 'USDT'])}
              </span>
              <span className="balance" data-testid="wallet-total">
                {formatAmount(valuation.data?.userBalanceConvert, { decimals })}
              </span>
              {(valuation.data?.unpricedCurrencies.length ?? 0) > 0 && (
                <span className="muted" style={{ fontSize: 12 }}>
                  {translate('wallet_unpriced', [valuation.data!.unpricedCurrencies.join(', ')])}
                </span>
              )}
              {demo && <span className="muted">{t('tip_demoAccount')}</span>}
            </section>
          )}
          {!demo && <EntryGrid entries={ENTRIES} />}
          <section className="card" style={{ padding: 0 }}>
            <div className="wallet-head muted" aria-hidden="true">
              <span>{t('wallet_currency')}</span>
              <span>{t('wallet_available')}</span>
              <span>{t('wallet_frozen')}</span>
            </div>
            {rows.map((row) => (
              <div
                key={row.currencyId}
                className="wallet-row"
                data-testid={`balance-${row.currencyName}`}
              >
                <span className="stack" style={{ gap: 2 }}>
                  <strong>{row.currencyName}</strong>
                  <span className="muted" style={{ fontSize: 12 }}>
                    {t('wallet_total')} {formatAmount(row.totalAmount, { decimals })}
                  </span>
                </span>
                <span>{formatAmount(row.amount, { decimals })}</span>
                <span className="muted">{formatAmount(row.frozenAmount, { decimals })}</span>
              </div>
            ))}
          </section>
        </div>
      </div>
    </RequireSignIn>
  );
}
