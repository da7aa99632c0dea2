/**
 * Balance records (accountRecord): every change of the account's balances, newest first, from the
 * ledger: what kind of change, the currency, the signed amount, the balance after it, whether it
 * moved the available or the frozen balance, and when. Filtered by type and currency (the wallet's
 * rows open it on their currency, `?currencyId=`), loaded page by page while scrolling.
 */
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { List, Popup } from 'antd-mobile';
import { DownOutline } from 'antd-mobile-icons';
import { useTranslation } from '../../i18n/react';
import {
  cmp,
  formatDateTime,
  isolateLtr,
  RECORD_TYPES,
  walletApi,
  type BalanceRecord,
  type RecordType,
} from '@bourse/shared';
import { api } from '../../api';
import { loadPlatformCurrencies, type PlatformCurrency } from '../../api/launch';
import { DemoBadge, useDemoAccount } from '../../components/demo-account';
import { Num } from '../../components/status-views';
import { RecordList, RecordTabs, useRecordPages } from '../../components/record-list';
import { SignedInScreen } from '../../components/signed-in-screen';
import { useUser } from '../../hooks/use-user';
import { translate } from '../../i18n';
import { getItem, STORAGE_KEY } from '../../lib/storage';
import { money as tradeMoney, UNKNOWN_CURRENCY } from '../../lib/trade';

/**
 * An amount with the app's decimals (`app_decimal_no`), more when the value has them, at most the
 * currency's scale when it is known: "100000.0000" USDT shows 100,000.00, 0.0002 BTC stays 0.0002.
 */
function money(value: string, scale: number | undefined): string {
  return tradeMoney(value, scale ?? Number.POSITIVE_INFINITY);
}

function usePlatformCurrencies(): PlatformCurrency[] {
  return (
    useQuery({
      queryKey: ['platformCurrencies'],
      queryFn: loadPlatformCurrencies,
      initialData: () => getItem<PlatformCurrency[]>(STORAGE_KEY.platformCurrency),
      initialDataUpdatedAt: 0,
    }).data ?? []
  );
}

function RecordRow({ record, scale }: { record: BalanceRecord; scale: number | undefined }) {
  const { t, i18n } = useTranslation();
  const sign = cmp(record.amount, '0');
  // What the entry did (`hold:withdraw`, `cancel:withdraw`, `capture:withdraw_fee`…), when known.
  const [step = '', subject = ''] = record.entryType.split(':');
  const actionKey = subject.endsWith('_fee') ? 'record_action_fee' : `record_action_${step}`;
  const action = record.entryType.includes(':') && i18n.exists(actionKey) ? t(actionKey) : '';
  const amount = money(record.amount, scale);
  const frozen = record.kind === 'frozen';
  return (
    <div
      data-testid="record-row"
      data-type={record.type}
      style={{
        display: 'grid',
        gridTemplateColumns: '1fr auto',
        gap: '4px 12px',
        padding: '12px 16px',
        borderBlockStart: '1px solid var(--border)',
        fontVariantNumeric: 'tabular-nums',
      }}
    >
      <span className="row" style={{ gap: 6, minWidth: 0 }}>
        <strong className="ellipsis">{t(`record_type_${record.type}`)}</strong>
        <span
          style={{
            flex: 'none',
            padding: '0 6px',
            borderRadius: 4,
            fontSize: 11,
            lineHeight: '18px',
            background: frozen ? 'rgb(241 168 2 / 16%)' : 'var(--surface-raised)',
            color: frozen ? 'var(--accent)' : 'var(--text-muted)',
          }}
        >
          {t(frozen ? 'wallet_frozen' : 'wallet_available')}
        </span>
      </span>
      <strong
        className={sign > 0 ? 'up' : sign < 0 ? 'down' : 'flat'}
        style={{ textAlign: 'end' }}
        data-testid="record-amount"
      >
        <Num>
          {sign > 0 ? '+' : ''}
          {amount}
        </Num>{' '}
        {/* The server names no currency it does not know: '- -' (SEED-SPEC section 3). */}
        {record.currencyName || UNKNOWN_CURRENCY}
      </strong>
      <span className="muted" style={{ fontSize: 12 }}>
        {formatDateTime(record.createTime)}
        {action && ` · ${action}`}
      </span>
      <span className="muted" style={{ fontSize: 12, textAlign: 'end' }}>
        {translate('record_balanceAfter', [isolateLtr(money(record.balanceAfter, scale))])}
      </span>
    </div>
  );
}

function CurrencyFilter({
  currencies,
  value,
  onChange,
}: {
  currencies: PlatformCurrency[];
  value: number | undefined;
  onChange: (currencyId: number | undefined) => void;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const choose = (currencyId: number | undefined) => {
    onChange(currencyId);
    setOpen(false);
  };
  const current = currencies.find((currency) => currency.id === value);
  return (
    <>
      <button
        type="button"
        className="area-code-button"
        data-testid="record-currency"
        aria-haspopup="listbox"
        onClick={() => setOpen(true)}
        style={{ display: 'inline-flex', alignItems: 'center', gap: 6 }}
      >
        {/* Opened on a currency the platform does not list (an old link): '- -', not "all". */}
        {current?.currencyName ??
          (value === undefined ? t('record_allCurrencies') : UNKNOWN_CURRENCY)}
        <DownOutline fontSize={12} />
      </button>
      <Popup
        visible={open}
        onMaskClick={() => setOpen(false)}
        bodyClassName="area-code-popup"
        bodyStyle={{ maxWidth: 'var(--frame-width)', margin: '0 auto', insetInline: 0 }}
      >
        <div className="area-code-list" role="listbox" aria-label={t('field_currencyId')}>
          <List header={t('field_currencyId')}>
            <List.Item
              arrowIcon={false}
              onClick={() => choose(undefined)}
              extra={value === undefined ? '✓' : undefined}
            >
              {t('record_allCurrencies')}
            </List.Item>
            {currencies.map((currency) => (
              <List.Item
                key={currency.id}
                arrowIcon={false}
                onClick={() => choose(currency.id)}
                extra={value === currency.id ? '✓' : undefined}
              >
                {currency.currencyName}
              </List.Item>
            ))}
          </List>
        </div>
      </Popup>
    </>
  );
}

const TYPE_TABS = [
  ['all', 'record_allTypes'],
  ...RECORD_TYPES.map((type) => [type, `record_type_${type}`] as const),
] as const;

export default function AccountRecordPage() {
  const { t } = useTranslation();
  const { user } = useUser();
  const demo = useDemoAccount();
  // The wallet opens a currency's records with `?currencyId=`: the filter starts on it.
  const [search] = useSearchParams();
  const [currencyId, setCurrencyId] = useState<number | undefined>(() => {
    const asked = Number(search.get('currencyId'));
    return Number.isInteger(asked) && asked > 0 ? asked : undefined;
  });
  const currencies = usePlatformCurrencies();
  const list = useRecordPages(
    ['balanceRecords', user?.accountType, currencyId],
    (page, type?: RecordType) => api.call(walletApi.balanceRecords, { ...page, type, currencyId }),
  );
  const scaleOfCurrency = new Map(currencies.map((currency) => [currency.id, currency.scale]));
  const filtered = list.filter !== 'all' || currencyId !== undefined;
  const clearFilters = () => {
    list.setFilter('all');
    setCurrencyId(undefined);
  };

  return (
    <SignedInScreen
      testId="account-record-page"
      title={t('record_title')}
      right={demo && <DemoBadge />}
    >
      <RecordTabs list={list} label="record_type" filters={TYPE_TABS} />
      <div className="row" style={{ padding: '0 16px 8px' }}>
        <span className="muted" style={{ fontSize: 13 }}>
          {t('field_currencyId')}
        </span>
        <CurrencyFilter currencies={currencies} value={currencyId} onChange={setCurrencyId} />
      </div>
      <div className="page-body" style={{ paddingTop: 0 }}>
        <RecordList
          list={list}
          className="card records-card"
          testId="records-list"
          endTestId="records-end"
          empty={{
            testId: 'records-empty',
            title: t(filtered ? 'record_emptyFiltered' : 'record_empty'),
            text: t(filtered ? 'record_emptyFilteredText' : 'record_emptyText'),
            action: filtered
              ? { label: t('record_clearFilters'), onClick: clearFilters }
              : undefined,
          }}
        >
          {list.rows.map((record) => (
            <RecordRow
              key={record.id}
              record={record}
              scale={scaleOfCurrency.get(record.currencyId)}
            />
          ))}
        </RecordList>
      </div>
    </SignedInScreen>
  );
}
