/**
 * Exchange records (changeRecord): the account's currency exchanges, newest first, loaded page
 * by page as the list scrolls: what was paid, what arrived, the rate and the fee.
 */
import { useTranslation } from '../../i18n/react';
import { formatDateTime, walletApi, type ConvertRecord } from '@bourse/shared';
import { api } from '../../api';
import { RecordList, useRecordPages } from '../../components/record-list';
import { SignedInScreen } from '../../components/signed-in-screen';
import { useUser } from '../../hooks/use-user';
import { navigateTo } from '../../lib/navigation';
import { moneyAsSent, shortRate } from './wallet-format';

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
            {moneyAsSent(record.amount)} {record.fromCurrencyName}
          </span>
        </span>
        <span style={{ ...cell, textAlign: 'end' }}>
          <span className="muted">{t('exchange_received')}</span>
          <strong
            style={{ overflowWrap: 'anywhere', color: 'var(--accent)' }}
            data-testid="convert-received"
          >
            {moneyAsSent(record.receiveAmount)} {record.toCurrencyName}
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
            {moneyAsSent(record.fee)} {record.fromCurrencyName}
          </span>
        </span>
      </div>
    </li>
  );
}

export default function ExchangeRecordPage() {
  const { t } = useTranslation();
  const { user } = useUser();
  const list = useRecordPages(['convertRecords', user?.accountType], (page) =>
    api.call(walletApi.exchanges, page),
  );
  return (
    <SignedInScreen testId="change-record-page" title={t('exchange_records')}>
      <div className="page-body">
        <RecordList
          list={list}
          empty={{
            title: t('exchange_noRecords'),
            action: { label: t('area_exchange'), onClick: () => navigateTo('exchange') },
          }}
        >
          <ul style={{ margin: 0, padding: 0 }} data-testid="convert-records">
            {list.rows.map((record) => (
              <RecordRow key={record.id} record={record} />
            ))}
          </ul>
        </RecordList>
      </div>
    </SignedInScreen>
  );
}
