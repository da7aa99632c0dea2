/**
 * The account's assets as the wallet tab and the assets component page show them, from the one
 * valuation the server computes (userBalanceConvert, the same answer home and me show): the total
 * in the trade currency at live prices with the time of the prices, and every asset held, each
 * currency balance and each spot holding with its available, frozen and value, linked to its
 * records; then the currencies never held, at zero.
 */
import { RightOutline } from 'antd-mobile-icons';
import { useTranslation } from '../../i18n/react';
import { formatAmount, UNKNOWN_VALUE, type BalanceValuation, type HeldAsset } from '@bourse/shared';
import { useDemoAccount } from '../../components/demo-account';
import { useUser } from '../../hooks/use-user';
import { useValuation } from '../../lib/balances';
import { navigateTo } from '../../lib/navigation';
import { getOtherValue } from '../../lib/storage';
import { money } from '../../lib/trade';
import { ListStatus } from '../../components/status-views';
import { TotalAssetsFigure } from '../../components/total-assets';
import { currencyName, tradeCurrencyId } from '../../lib/trade';

export interface Assets {
  /** Every asset, held ones first, as the server lists them. */
  rows: HeldAsset[];
  valuation: BalanceValuation | undefined;
  /** The decimals the total and the values are shown with (`app_decimal_no`). */
  decimals: number;
  /** The session uses the demo account (virtual funds). */
  demo: boolean;
  /** The valuation could not be read (and none is shown yet). */
  failed: boolean;
  /** Reads the valuation again; resolves when it is in. */
  refresh: () => Promise<unknown>;
}

/** The valuation of the session's book (live or demo), which keys the cache. */
export function useAssets(): Assets {
  const book = useUser().user?.accountType;
  const demo = useDemoAccount();
  // Read again when the user's money moves (the hook listens while shown) and as prices move.
  const valuation = useValuation(book, book !== undefined);
  return {
    rows: valuation.data?.assets ?? [],
    valuation: valuation.data,
    decimals: getOtherValue().app_decimal_no,
    demo,
    failed: valuation.isError && !valuation.data,
    refresh: () => valuation.refetch(),
  };
}

export function TotalAssets({ assets: { valuation, decimals, demo } }: { assets: Assets }) {
  const { t } = useTranslation();
  return (
    <section className="hero stack" style={{ gap: 4 }}>
      <TotalAssetsFigure valuation={valuation} decimals={decimals} testId="wallet-total" />
      {valuation && (
        <span className="muted" style={{ fontSize: 12 }} data-testid="wallet-breakdown">
          {t('trade_margin')} {formatAmount(valuation.allMarginAmount, { decimals })} ·{' '}
          {t('position_unrealizedPnl')} {formatAmount(valuation.profitAndLose, { decimals })}
        </span>
      )}
      {demo && <span className="muted">{t('tip_demoAccount')}</span>}
    </section>
  );
}

/** A row's records: a currency's balance records, a spot holding's orders. */
function openRecords(asset: HeldAsset): void {
  if (asset.kind === 'spot') navigateTo('bibiOrder', { kind: 'spot' });
  else navigateTo('accountRecord', { currencyId: asset.currencyId ?? undefined });
}

export function BalanceTable({
  assets: { rows, valuation, decimals, failed, refresh },
}: {
  assets: Assets;
}) {
  const { t } = useTranslation();
  const trade = valuation?.currencyName ?? currencyName(tradeCurrencyId());
  return (
    <section className="card" style={{ padding: 0 }} data-testid="wallet-assets">
      <div className="wallet-head muted" aria-hidden="true">
        <span>{t('wallet_currency')}</span>
        <span>{t('wallet_available')}</span>
        <span>{t('wallet_frozen')}</span>
      </div>
      <ListStatus
        list={{ loaded: valuation !== undefined, failed, retry: () => void refresh() }}
        count={rows.length}
        empty={{ title: t('common_noData') }}
        skeletonRows={3}
      />
      {rows.map((row, index) => {
        const name =
          row.kind === 'spot' ? `${row.assetName} · ${t('trade_spotTitle')}` : row.assetName;
        return (
          <button
            type="button"
            key={`${row.kind}-${row.currencyId ?? row.productCode}`}
            className="wallet-row"
            data-testid={
              row.kind === 'spot' ? `holding-${row.productCode}` : `balance-${row.assetName}`
            }
            onClick={() => openRecords(row)}
            style={{
              width: '100%',
              background: 'none',
              border: 0,
              // The separator of .wallet-row + .wallet-row, which the reset above would drop.
              borderBlockStart: index === 0 ? 0 : '1px solid var(--border)',
              color: 'inherit',
              font: 'inherit',
              textAlign: 'start',
              cursor: 'pointer',
            }}
          >
            <span className="stack" style={{ gap: 2, minWidth: 0 }}>
              <strong className="ellipsis">{name}</strong>
              <span className="muted" style={{ fontSize: 12 }} data-testid="asset-value">
                {row.value === null
                  ? UNKNOWN_VALUE
                  : `≈ ${formatAmount(row.value, { decimals })} ${trade}`}
              </span>
            </span>
            <span data-testid="asset-available">{money(row.amount, Number.POSITIVE_INFINITY)}</span>
            <span className="muted row" style={{ justifyContent: 'flex-end', gap: 4 }}>
              <span data-testid="asset-frozen">
                {money(row.frozenAmount, Number.POSITIVE_INFINITY)}
              </span>
              <RightOutline className="flip-rtl" fontSize={12} aria-hidden="true" />
            </span>
          </button>
        );
      })}
    </section>
  );
}
