/**
 * Award records (/pages/user/award): every reward the user received, newest first: welfare tasks
 * (the campaign, the task, the amount) and deposit reward tiers (the deposit, its rate), each with
 * its time and the ledger entry that credited it; a completion the campaign's budget could not
 * pay says so. Tabs: all, tasks, deposit rewards.
 */
import { AWARD_SOURCE, formatDateTime, formatMessage, type AwardRecord } from '@bourse/shared';
import { RecordList, RecordTabs, useRecordPages } from '../../components/record-list';
import { SignedInScreen } from '../../components/signed-in-screen';
import { Num } from '../../components/status-views';
import { useTranslation } from '../../i18n/react';
import { fetchAwardPage, rewardKeys } from './api';
import { percent, taskTitle } from './task-text';
import './rewards.css';

const FILTERS = [
  ['all', 'award_all'],
  [AWARD_SOURCE.task, 'award_tasks'],
  [AWARD_SOURCE.depositTier, 'award_deposit'],
] as const;

function AwardRow({ record }: { record: AwardRecord }) {
  const { t } = useTranslation();
  const title =
    record.source === AWARD_SOURCE.task && record.taskKind
      ? taskTitle(t, {
          kind: record.taskKind,
          threshold: record.threshold ?? '0',
          currency: record.currency,
        })
      : formatMessage(t('award_depositTier'), [
          percent(record.rate ?? '0'),
          record.depositAmount ?? '',
          record.currency,
        ]);
  return (
    <li className="card rw-award" data-testid={`award-${record.id}`}>
      <div className="rw-task-head">
        <strong className="rw-task-title">{title}</strong>
        <span className={record.paid ? 'rw-reward' : 'rw-reward rw-unpaid'}>
          <Num>
            +{record.amount} {record.currency}
          </Num>
        </span>
      </div>
      {record.campaignTitle && <p className="rw-muted">{record.campaignTitle}</p>}
      {record.rechargeOrderNo && (
        <p className="rw-muted">
          {t('award_depositOrder')} <Num>{record.rechargeOrderNo}</Num>
        </p>
      )}
      {!record.paid && <p className="rw-warning">{t('award_unpaid')}</p>}
      <div className="rw-task-foot">
        <Num className="rw-muted">{formatDateTime(record.time)}</Num>
        {record.entryId !== null && (
          <span className="rw-muted" data-testid={`award-${record.id}-entry`}>
            {formatMessage(t('award_entry'), [record.entryId])}
          </span>
        )}
      </div>
    </li>
  );
}

export default function AwardPage() {
  const { t } = useTranslation();
  const list = useRecordPages<AwardRecord, number>(rewardKeys.awards, (page, source) =>
    fetchAwardPage(page, source),
  );
  return (
    <SignedInScreen testId="award-page" title={t('award_title')}>
      <RecordTabs list={list} label="field_source" filters={FILTERS} testId="award-tab" />
      <div role="tabpanel">
        <RecordList
          list={list}
          className="rw-list"
          testId="award-rows"
          empty={{ title: t('award_empty'), testId: 'award-empty' }}
        >
          <ul className="rw-awards">
            {list.rows.map((record) => (
              <AwardRow key={record.id} record={record} />
            ))}
          </ul>
        </RecordList>
      </div>
    </SignedInScreen>
  );
}
