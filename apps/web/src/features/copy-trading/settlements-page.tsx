/**
 * The user's profit-share settlements (/pages/followOrder/settlements[?relationId=…]), newest
 * first, each with its inputs: the cumulative net P&L of the copies, the high-water mark before
 * and after, the rate, the share (rate × the part above the mark, rounded down; nothing when not
 * above), what was owed before, what was paid and what is still owed — so the user can work the
 * share out again.
 */
import { useSearchParams } from 'react-router';
import { SETTLEMENT_REASON, isPositive } from '@bourse/shared';
import { RecordList, useRecordPages } from '../../components/record-list';
import { SignedInScreen } from '../../components/signed-in-screen';
import { Num } from '../../components/status-views';
import { useTranslation } from '../../i18n/react';
import { copyKeys, fetchSettlementPage, type CopySettlement } from './api';
import { BookTag, Line, Toned, amountText, pnlText, timeText } from './copy-parts';
import { fractionPercent } from './figures';

function SettlementCard({ settlement }: { settlement: CopySettlement }) {
  const { t } = useTranslation();
  const id = settlement.id;
  const money = (value: string) => amountText(value, settlement.currency);
  const daily = settlement.reason === SETTLEMENT_REASON.daily;
  return (
    <li className="card ct-card" data-testid={`copy-settlement-${id}`}>
      <div className="ct-card-head">
        <div className="ct-names">
          <strong className="ct-name">{settlement.traderName}</strong>
          <Num className="ct-title">{settlement.day}</Num>
        </div>
        <BookTag book={settlement.book} />
        <span
          className="list-tag"
          data-testid="copy-settlement-reason"
          data-status={settlement.reason}
        >
          {t(daily ? 'copy_reasonDaily' : 'copy_reasonUnfollow')}
        </span>
      </div>
      <Line
        label={t('copy_cumPnl')}
        value={
          <Toned value={settlement.cumPnl}>{pnlText(settlement.cumPnl, settlement.currency)}</Toned>
        }
        number={false}
        testId={`copy-settlement-${id}-pnl`}
      />
      <Line
        label={t('copy_hwmBefore')}
        value={money(settlement.hwmBefore)}
        testId={`copy-settlement-${id}-before`}
      />
      <Line
        label={t('copy_hwmAfter')}
        value={money(settlement.hwmAfter)}
        testId={`copy-settlement-${id}-after`}
      />
      <Line
        label={t('copy_shareRate')}
        value={fractionPercent(settlement.rate)}
        testId={`copy-settlement-${id}-rate`}
      />
      <Line
        label={t('copy_share')}
        value={money(settlement.share)}
        testId={`copy-settlement-${id}-share`}
        strong
      />
      {isPositive(settlement.owedBefore) && (
        <Line label={t('copy_owedBefore')} value={money(settlement.owedBefore)} />
      )}
      <Line
        label={t('copy_paid')}
        value={money(settlement.paid)}
        testId={`copy-settlement-${id}-paid`}
      />
      {isPositive(settlement.owedAfter) && (
        <Line
          label={t('copy_owed')}
          value={money(settlement.owedAfter)}
          testId={`copy-settlement-${id}-owed`}
        />
      )}
      <p className="ct-note">
        {t(isPositive(settlement.share) ? 'copy_shareRule' : 'copy_noShareRule')}
      </p>
      <Num className="muted ct-note">{timeText(settlement.createTime)}</Num>
    </li>
  );
}

export default function SettlementsPage() {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const relationId = Number(search.get('relationId')) || undefined;
  const list = useRecordPages<CopySettlement, string>(copyKeys.settlements(relationId), (page) =>
    fetchSettlementPage(page, relationId),
  );
  return (
    <SignedInScreen testId="copy-settlements-page" title={t('copy_mySettlements')}>
      <p className="ct-intro">{t('copy_settlementsIntro')}</p>
      <RecordList
        list={list}
        className="card-list"
        testId="copy-settlements"
        empty={{ title: t('copy_noSettlements'), testId: 'copy-settlements-empty' }}
      >
        <ul className="card-items">
          {list.rows.map((settlement) => (
            <SettlementCard key={settlement.id} settlement={settlement} />
          ))}
        </ul>
      </RecordList>
    </SignedInScreen>
  );
}
