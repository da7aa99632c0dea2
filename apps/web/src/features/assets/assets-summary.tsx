/**
 * The account's assets as the wallet tab and the assets component page show them: the total
 * valued in the trade currency at live prices (personCenterPanelData) and every platform
 * currency's available, frozen and total balance (userBalance), held currencies first.
 */
import { useEffect } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  assetsApi,
  formatAmount,
  isZero,
  type BalanceValuation,
  type CurrencyBalance,
} from '@bourse/shared';
import { api } from '../../api';
import { useDemoAccount } from '../../components/demo-account';
import { useUser } from '../../hooks/use-user';
import { translate } from '../../i18n';
import { getOtherValue } from '../../lib/storage';
import { fetchBalances } from '../../lib/trade';
import { subscribe } from '../../lib/realtime';

export interface Assets {
  /** Every currency's balance, held currencies first. */
  rows: CurrencyBalance[];
  valuation: BalanceValuation | undefined;
  /** The decimals amounts are shown with (`app_decimal_no`). */
  decimals: number;
  /** The session uses the demo account (virtual funds). */
  demo: boolean;
}

/** Balances and valuation of the session's book (live or demo), which keys the cache. */
export function useAssets(): Assets {
  const book = useUser().user?.accountType;
  const demo = useDemoAccount();
  // Read afresh whenever shown: money can arrive meanwhile (an operator approves a deposit), and
  // the total must never disagree with the balances beside it.
  const balances = useQuery({
    queryKey: ['balances', book],
    queryFn: fetchBalances,
    staleTime: 0,
  });
  const valuation = useQuery({
    queryKey: ['personCenterPanelData', book],
    queryFn: () => api.call(assetsApi.panelData),
    staleTime: 0,
  });
  // While shown, the server's word that the user's money moved (a trade, a deposit credited, a
  // withdrawal paid…) reads both again at once.
  const queryClient = useQueryClient();
  useEffect(() => {
    if (book === undefined) return;
    const refresh = () => {
      void queryClient.invalidateQueries({ queryKey: ['balances'] });
      void queryClient.invalidateQueries({ queryKey: ['personCenterPanelData'] });
    };
    return subscribe('balances', refresh, refresh);
  }, [book, queryClient]);
  // Currencies the user holds first, then the others.
  const rows = [...(balances.data ?? [])].sort(
    (a, b) => Number(isZero(a.totalAmount)) - Number(isZero(b.totalAmount)),
  );
  return { rows, valuation: valuation.data, decimals: getOtherValue().app_decimal_no, demo };
}

export function TotalAssets({ assets: { valuation, decimals, demo } }: { assets: Assets }) {
  const { t } = useTranslation();
  return (
    <section className="hero stack" style={{ gap: 4 }}>
      <span className="muted">
        {translate('account_totalAssets', [valuation?.currencyName ?? 'USDT'])}
      </span>
      <span className="balance" data-testid="wallet-total">
        {formatAmount(valuation?.userBalanceConvert, { decimals })}
      </span>
      {(valuation?.unpricedCurrencies.length ?? 0) > 0 && (
        <span className="muted" style={{ fontSize: 12 }}>
          {translate('wallet_unpriced', [valuation!.unpricedCurrencies.join(', ')])}
        </span>
      )}
      {demo && <span className="muted">{t('tip_demoAccount')}</span>}
    </section>
  );
}

export function BalanceTable({ assets: { rows, decimals } }: { assets: Assets }) {
  const { t } = useTranslation();
  return (
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
  );
}
