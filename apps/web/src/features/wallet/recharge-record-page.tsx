/**
 * Deposit records (rechargeRecord): the user's deposits, newest first, filtered by status, loaded
 * page by page as the list scrolls. Each row opens its detail.
 */
import { useTranslation } from '../../i18n/react';
import { formatDateTime, RECHARGE_STATUS } from '@bourse/shared';
import { RecordList, RecordTabs, useRecordPages } from '../../components/record-list';
import { SignedInScreen } from '../../components/signed-in-screen';
import { navigateTo } from '../../lib/navigation';
import { fetchRechargePage } from './recharge-api';
import { rechargeStatusKey, RechargeStatusTag } from './recharge-parts';
import { moneyAsSent } from './wallet-format';

const TABS = [
  ['all', 'recharge_statusAll'],
  ...[RECHARGE_STATUS.reviewing, RECHARGE_STATUS.approved, RECHARGE_STATUS.rejected].map(
    (status) => [status, rechargeStatusKey(status)] as const,
  ),
] as const;

export default function RechargeRecordPage() {
  const { t } = useTranslation();
  const list = useRecordPages(['rechargeRecords'], (page, status?: number) =>
    fetchRechargePage({ ...page, status }),
  );
  return (
    <SignedInScreen testId="recharge-record-page" title={t('recharge_records')}>
      <RecordTabs list={list} label="recharge_filter" filters={TABS} testId="recharge-filter" />
      <div role="tabpanel" data-testid="recharge-records">
        <RecordList
          list={list}
          empty={{
            title: t('recharge_noRecords'),
            action: { label: t('recharge_newDeposit'), onClick: () => navigateTo('recharge') },
          }}
        >
          {list.rows.map((row) => (
            <button
              key={row.id}
              type="button"
              className="rc-record"
              data-testid={`recharge-row-${row.id}`}
              onClick={() => navigateTo('rechargeDetail', { id: row.id })}
            >
              <strong>
                {moneyAsSent(row.amount)} {row.currencyName}
              </strong>
              <RechargeStatusTag status={row.status} />
              <span className="muted ellipsis">{row.channelName}</span>
              <span className="muted">{formatDateTime(row.createTime)}</span>
            </button>
          ))}
        </RecordList>
      </div>
    </SignedInScreen>
  );
}
