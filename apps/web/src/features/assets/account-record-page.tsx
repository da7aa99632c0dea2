/**
 * Balance records (accountRecord): every change of the account's balances, newest first, from the
 * ledger: what kind of change, the currency, the signed amount, the balance after it, whether it
 * moved the available or the frozen balance, and when. Filtered by type and currency, loaded page
 * by page while scrolling.
 */
import { useState } from 'react';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { Button, InfiniteScroll, List, Popup } from 'antd-mobile';
import { DownOutline, FileOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import {
  ACCOUNT_TYPE,
  cmp,
  formatAmount,
  formatDateTime,
  isDecimalString,
  normalize,
  RECORD_TYPES,
  scaleOf,
  SWITCH,
  SWITCH_OFF,
  walletApi,
  type BalanceRecord,
  type RecordType,
} from '@bourse/shared';
import { api } from '../../api';
import { loadPlatformCurrencies, storedSwitches, type PlatformCurrency } from '../../api/launch';
import { PageHeader } from '../../components/page-header';
import { RequireSignIn } from '../../components/require-sign-in';
import { useUser } from '../../hooks/use-user';
import { translate } from '../../i18n';
import { getItem, getOtherValue, STORAGE_KEY } from '../../lib/storage';

const PAGE_SIZE = 20;

/**
 * An amount with the app's decimals (`app_decimal_no`), more when the value has them, at most the
 * currency's scale: "100000.0000" USDT shows 100,000.00, 0.0002 BTC stays 0.0002.
 */
function money(value: string, scale: number | undefined, thousands: boolean): string {
  if (!isDecimalString(value)) return formatAmount(value);
  const wanted = Math.max(getOtherValue().app_decimal_no, scaleOf(normalize(value)));
  return formatAmount(value, {
    decimals: scale === undefined ? wanted : Math.min(wanted, scale),
    thousands,
  });
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

function RecordRow({
  record,
  scale,
  thousands,
}: {
  record: BalanceRecord;
  scale: number | undefined;
  thousands: boolean;
}) {
  const { t, i18n } = useTranslation();
  const sign = cmp(record.amount, '0');
  // What the entry did (`hold:withdraw`, `cancel:withdraw`, `capture:withdraw_fee`…), when known.
  const [step = '', subject = ''] = record.entryType.split(':');
  const actionKey = subject.endsWith('_fee') ? 'record_action_fee' : `record_action_${step}`;
  const action = record.entryType.includes(':') && i18n.exists(actionKey) ? t(actionKey) : '';
  const amount = money(record.amount, scale, thousands);
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
        {sign > 0 ? '+' : ''}
        {amount} {record.currencyName}
      </strong>
      <span className="muted" style={{ fontSize: 12 }}>
        {formatDateTime(record.createTime)}
        {action && ` · ${action}`}
      </span>
      <span className="muted" style={{ fontSize: 12, textAlign: 'end' }}>
        {translate('record_balanceAfter', [money(record.balanceAfter, scale, thousands)])}
      </span>
    </div>
  );
}

/** A horizontal row of choices, one selected (the market tabs' look). */
function FilterTabs<T extends string>({
  label,
  options,
  value,
  onChange,
}: {
  label: string;
  options: readonly { value: T; label: string }[];
  value: T;
  onChange: (value: T) => void;
}) {
  return (
    <div className="market-tabs" role="tablist" aria-label={label}>
      {options.map((option) => (
        <button
          key={option.value}
          type="button"
          role="tab"
          aria-selected={value === option.value}
          onClick={() => onChange(option.value)}
        >
          {option.label}
        </button>
      ))}
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
        {current?.currencyName ?? t('record_allCurrencies')}
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

/** What shows instead of rows: nothing yet, or nothing for the chosen filters. */
function EmptyRecords({ filtered, onClear }: { filtered: boolean; onClear: () => void }) {
  const { t } = useTranslation();
  return (
    <div
      className="stack"
      data-testid="records-empty"
      style={{ alignItems: 'center', textAlign: 'center', padding: '48px 24px', gap: 10 }}
    >
      <FileOutline fontSize={48} color="var(--text-muted)" aria-hidden="true" />
      <strong style={{ fontSize: 16 }}>
        {t(filtered ? 'record_emptyFiltered' : 'record_empty')}
      </strong>
      <span className="muted" style={{ fontSize: 13, lineHeight: 1.5 }}>
        {t(filtered ? 'record_emptyFilteredText' : 'record_emptyText')}
      </span>
      {filtered && (
        <Button size="small" color="primary" fill="outline" onClick={onClear}>
          {t('record_clearFilters')}
        </Button>
      )}
    </div>
  );
}

export default function AccountRecordPage() {
  const { t } = useTranslation();
  const { user } = useUser();
  const [type, setType] = useState<RecordType | 'all'>('all');
  const [currencyId, setCurrencyId] = useState<number | undefined>();
  const currencies = usePlatformCurrencies();
  const thousands = storedSwitches()[SWITCH.thousandsSeparator] !== SWITCH_OFF;
  const records = useInfiniteQuery({
    queryKey: ['balanceRecords', user?.accountType, type, currencyId],
    queryFn: ({ pageParam }) =>
      api.call(walletApi.balanceRecords, {
        pageNum: pageParam,
        pageSize: PAGE_SIZE,
        type: type === 'all' ? undefined : type,
        currencyId,
      }),
    initialPageParam: 1,
    getNextPageParam: (last, pages) =>
      pages.reduce((count, page) => count + page.rows.length, 0) < last.total &&
      last.rows.length > 0
        ? pages.length + 1
        : undefined,
  });
  // New changes arriving while paging shift later pages: each posting shows once.
  const seen = new Set<string>();
  const rows = (records.data?.pages ?? [])
    .flatMap((page) => page.rows)
    .filter((row) => (seen.has(row.id) ? false : (seen.add(row.id), true)));
  const scaleOfCurrency = new Map(currencies.map((currency) => [currency.id, currency.scale]));
  const filtered = type !== 'all' || currencyId !== undefined;

  const typeOptions = [
    { value: 'all' as const, label: t('record_allTypes') },
    ...RECORD_TYPES.map((value) => ({ value, label: t(`record_type_${value}`) })),
  ];

  return (
    <RequireSignIn>
      <div className="page" data-testid="account-record-page">
        <PageHeader
          title={t('record_title')}
          right={
            user?.accountType === ACCOUNT_TYPE.demo ? (
              <span className="badge-demo">{t('account_demoBadge')}</span>
            ) : undefined
          }
        />
        <FilterTabs
          label={t('record_type')}
          options={typeOptions}
          value={type}
          onChange={setType}
        />
        <div className="row" style={{ padding: '0 16px 8px' }}>
          <span className="muted" style={{ fontSize: 13 }}>
            {t('field_currencyId')}
          </span>
          <CurrencyFilter currencies={currencies} value={currencyId} onChange={setCurrencyId} />
        </div>
        <div className="page-body" style={{ paddingTop: 0 }}>
          {records.isSuccess && rows.length === 0 ? (
            <EmptyRecords
              filtered={filtered}
              onClear={() => {
                setType('all');
                setCurrencyId(undefined);
              }}
            />
          ) : (
            <section
              className="card"
              style={{ padding: 0, overflow: 'hidden' }}
              data-testid="records-list"
            >
              {rows.map((record, index) => (
                <div key={record.id} style={index === 0 ? { marginTop: -1 } : undefined}>
                  <RecordRow
                    record={record}
                    scale={scaleOfCurrency.get(record.currencyId)}
                    thousands={thousands}
                  />
                </div>
              ))}
              <InfiniteScroll
                style={{ padding: 0 }}
                hasMore={records.hasNextPage}
                loadMore={async () => {
                  const result = await records.fetchNextPage();
                  if (result.isError) throw result.error;
                }}
              >
                {(hasMore, failed, retry) => (
                  <div
                    className="muted"
                    style={{
                      width: '100%',
                      padding: 12,
                      textAlign: 'center',
                      fontSize: 13,
                      borderBlockStart: rows.length > 0 ? '1px solid var(--border)' : undefined,
                    }}
                    data-testid="records-end"
                  >
                    {failed || (records.isError && rows.length === 0) ? (
                      <button
                        type="button"
                        className="link"
                        onClick={() => (failed ? retry() : void records.refetch())}
                      >
                        {t('common_retry')}
                      </button>
                    ) : hasMore || records.isFetching ? (
                      t('common_loading')
                    ) : (
                      t('record_noMore')
                    )}
                  </div>
                )}
              </InfiniteScroll>
            </section>
          )}
        </div>
      </div>
    </RequireSignIn>
  );
}
