/**
 * Staking interest (/pages/pledge/Interest?stakingOrderId=…): one record per order and UTC day,
 * newest first, each with the stake it was worked out on and where it went (the available balance,
 * the stake when compounding, or held for maturity); every order's when none is named.
 */
import { formatMessage, type InterestRecord } from '@bourse/shared';
import { RecordList, useRecordPages } from '../../components/record-list';
import { SignedInScreen } from '../../components/signed-in-screen';
import { Num } from '../../components/status-views';
import { useTranslation } from '../../i18n/react';
import { money } from '../../lib/trade';
import { earnKeys, fetchInterestPage } from './api';
import { useIdParam } from './earn-screens';
import './earn.css';

function RecordRow({ record }: { record: InterestRecord }) {
  const { t } = useTranslation();
  return (
    <li className="er-record" data-testid={`earn-record-${record.id}`}>
      <div className="er-record-main">
        <Num className="er-record-day">{record.day}</Num>
        <span className="muted er-small">
          {t(`earn_credited_${record.credited}`)} ·{' '}
          <Num>
            {formatMessage(t('earn_onStake'), [`${money(record.balance, 18)} ${record.currency}`])}
          </Num>
        </span>
        <span className="muted er-small">
          {t('earn_orderNo')} <Num>{record.orderNo}</Num>
        </span>
      </div>
      <Num className="er-record-amount">
        +{money(record.amount, 18)} {record.currency}
      </Num>
    </li>
  );
}

export default function PledgeInterestPage() {
  const { t } = useTranslation();
  const orderId = useIdParam('stakingOrderId');
  const one = Number.isInteger(orderId) && orderId > 0 ? orderId : undefined;
  const list = useRecordPages<InterestRecord, number>(earnKeys.records(one), (page) =>
    fetchInterestPage(page, one),
  );
  return (
    <SignedInScreen testId="pledge-interest-page" title={t('earn_records')}>
      <p className="er-intro er-intro-padded">{t('earn_recordsIntro')}</p>
      <RecordList
        list={list}
        className="card er-records"
        testId="earn-records"
        empty={{ title: t('earn_recordsEmpty'), testId: 'earn-records-empty' }}
      >
        <ul className="er-record-list">
          {list.rows.map((record) => (
            <RecordRow key={record.id} record={record} />
          ))}
        </ul>
      </RecordList>
    </SignedInScreen>
  );
}
