/**
 * Exchange records (changeRecord): the account's currency exchanges, newest first, loaded page
 * by page as the list scrolls: what was paid, what arrived, the rate and the fee.
 */
import { useInfiniteQuery } from '@tanstack/react-query';
import { Button, InfiniteScroll } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import {
  formatAmount,
  formatDateTime,
  isDecimalString,
  normalize,
  scaleOf,
  SWITCH,
  SWITCH_OFF,
  walletApi,
  type ConvertRecord,
} from '@bourse/shared';
import { api } from '../../api';
import { storedSwitches } from '../../api/launch';
import { PageHeader } from '../../components/page-header';
import { RequireSignIn } from '../../components/require-sign-in';
import { useUser } from '../../hooks/use-user';
import { navigateTo } from '../../lib/navigation';
import { getOtherValue } from '../../lib/storage';

const PAGE_SIZE = 20;

/** An amount as the server sent it (at its currency's scale), with at least the app's decimals. */
function money(value: string): string {
  const decimals = Math.max(
    isDecimalString(value) ? scaleOf(value) : 0,
    getOtherValue().app_decimal_no,
  );
  return formatAmount(value, {
    decimals,
    thousands: storedSwitches()[SWITCH.thousandsSeparator] !== SWITCH_OFF,
  });
}

/** A rate with 8 significant digits after its leading zeros: 0.000008929849513283 -> 0.0000089298495. */
function shortRate(rate: string): string {
  if (!isDecimalString(rate)) return '- -';
  const value = normalize(rate);
  const [integer = '0', fraction = ''] = value.replace('-', '').split('.');
  const zeros = integer === '0' ? (/^0*/.exec(fraction)?.[0].length ?? 0) : 0;
  const decimals = Math.min(fraction.length, zeros + 8);
  return formatAmount(value, {
    decimals,
    thousands: storedSwitches()[SWITCH.thousandsSeparator] !== SWITCH_OFF,
  })
    .replace(/(\.\d*?)0+$/, '$1')
    .replace(/\.$/, '');
}

const cell: React.CSSProperties = { display: 'flex', flexDirection: 'column', gap: 2, minWidth: 0 };

function RecordRow({ record }: { record: ConvertRecord }) {
  const { t } = useTranslation();
  return (
    <li
      className="card"
      style={{ listStyle: 'none', display: 'grid', gap: 10 }}
      data-testid={`convert-row-${record.id}`}
    >
      <div className="row">
        <strong>
          {record.fromCurrencyName} → {record.toCurrencyName}
        </strong>
        <span className="spacer" />
        <span className="muted" style={{ fontSize: 12 }}>
          {formatDateTime(record.createTime)}
        </span>
      </div>
      <div
        style={{
          display: 'grid',
          gridTemplateColumns: '1fr 1fr',
          gap: '8px 12px',
          fontSize: 13,
          fontVariantNumeric: 'tabular-nums',
        }}
      >
        <span style={cell}>
          <span className="muted">{t('exchange_paid')}</span>
          <span style={{ overflowWrap: 'anywhere' }} data-testid="convert-paid">
            {money(record.amount)} {record.fromCurrencyName}
          </span>
        </span>
        <span style={{ ...cell, textAlign: 'end' }}>
          <span className="muted">{t('exchange_received')}</span>
          <strong
            style={{ overflowWrap: 'anywhere', color: 'var(--accent)' }}
            data-testid="convert-received"
          >
            {money(record.receiveAmount)} {record.toCurrencyName}
          </strong>
        </span>
        <span style={cell}>
          <span className="muted">{t('exchange_rate')}</span>
          <span style={{ overflowWrap: 'anywhere' }}>
            1 {record.fromCurrencyName} ≈ {shortRate(record.rate)} {record.toCurrencyName}
          </span>
        </span>
        <span style={{ ...cell, textAlign: 'end' }}>
          <span className="muted">{t('exchange_fee')}</span>
          <span style={{ overflowWrap: 'anywhere' }}>
            {money(record.fee)} {record.fromCurrencyName}
          </span>
        </span>
      </div>
    </li>
  );
}

export default function ExchangeRecordPage() {
  const { t } = useTranslation();
  const { user } = useUser();
  const query = useInfiniteQuery({
    queryKey: ['convertRecords', user?.accountType],
    queryFn: ({ pageParam }) =>
      api.call(walletApi.exchanges, {
        pageNum: pageParam,
        pageSize: PAGE_SIZE,
      }),
    initialPageParam: 1,
    getNextPageParam: (last, pages) =>
      last.rows.length === PAGE_SIZE && pages.length * PAGE_SIZE < last.total
        ? pages.length + 1
        : undefined,
  });
  const rows = query.data?.pages.flatMap((page) => page.rows) ?? [];
  const note: React.CSSProperties = { padding: 16, textAlign: 'center', fontSize: 13 };
  return (
    <RequireSignIn>
      <div className="page" data-testid="change-record-page">
        <PageHeader title={t('exchange_records')} />
        <div className="page-body">
          {query.isSuccess && rows.length === 0 && (
            <div className="stack" style={{ alignItems: 'center', padding: '48px 16px' }}>
              <p className="muted" style={{ margin: 0 }}>
                {t('exchange_noRecords')}
              </p>
              <Button color="primary" fill="outline" onClick={() => navigateTo('exchange')}>
                {t('area_exchange')}
              </Button>
            </div>
          )}
          <ul style={{ margin: 0, padding: 0 }} data-testid="convert-records">
            {rows.map((record) => (
              <RecordRow key={record.id} record={record} />
            ))}
          </ul>
          {query.isPending && (
            <p className="muted" style={note}>
              {t('common_loading')}
            </p>
          )}
          {query.isError && !query.data && (
            <div style={note}>
              <Button onClick={() => void query.refetch()}>{t('common_retry')}</Button>
            </div>
          )}
          {query.isSuccess && (
            <InfiniteScroll
              hasMore={query.hasNextPage}
              loadMore={async () => {
                const result = await query.fetchNextPage();
                if (result.isError) throw result.error;
              }}
            >
              {(hasMore, failed, retry) =>
                failed ? (
                  <button type="button" className="link" style={note} onClick={retry}>
                    {t('common_retry')}
                  </button>
                ) : hasMore ? (
                  <span className="muted" style={note}>
                    {t('common_loading')}
                  </span>
                ) : rows.length > 0 ? (
                  <span className="muted" style={note}>
                    {t('exchange_noMore')}
                  </span>
                ) : null
              }
            </InfiniteScroll>
          )}
        </div>
      </div>
    </RequireSignIn>
  );
}
