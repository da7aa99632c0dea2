/**
 * The user's copies (/pages/followOrder/copies[?relationId=…]), newest first: each beside the
 * leader's position it copies — the leader's entry price and time next to the copy's own entry
 * price and time — with the copy's own entry (and exit) tick as evidence, since each copy is a
 * contract position filled at the follower's own tick; a copy that could not open says why.
 */
import { useSearchParams } from 'react-router';
import { TASK_STATUS, type TickEvidence } from '@bourse/shared';
import { EvidenceTicks } from '../../components/evidence-ticks';
import { RecordList, useRecordPages } from '../../components/record-list';
import { SignedInScreen } from '../../components/signed-in-screen';
import { Num } from '../../components/status-views';
import type { LineProps, TickCardLook } from '../../components/tick-card';
import { useTranslation } from '../../i18n/react';
import { navigateTo } from '../../lib/navigation';
import { tickTime } from '../../lib/trade';
import { copyKeys, fetchCopyPage, type CopyRow } from './api';
import { BookTag, CopyStatusTag, Line, Toned, amountText, pnlText, timeText } from './copy-parts';

function EvidenceLine({ label, children, testId }: LineProps) {
  return <Line label={label} value={children} testId={testId} />;
}

const EVIDENCE_LOOK: TickCardLook = {
  Line: EvidenceLine,
  className: 'ct-evidence',
  price: (price) => price,
  time: (ms) => tickTime(ms),
};

function CopyCard({ copy }: { copy: CopyRow }) {
  const { t } = useTranslation();
  const { leader, position } = copy;
  const id = copy.id;
  const long = leader.orderDirection === 1;
  const closed = position?.status === 2;
  const currency = position?.currencyName ?? '';
  const failed = copy.status === TASK_STATUS.failed || copy.status === TASK_STATUS.skipped;
  return (
    <li className="card ct-card" data-testid={`copy-copy-${id}`}>
      <div className="ct-position-head">
        <strong>{leader.productName || leader.productCode}</strong>
        <span className={long ? 'ct-long' : 'ct-short'}>
          {t(long ? 'copy_long' : 'copy_short')}
        </span>
        <Num className="list-tag">{`${leader.leverage}x`}</Num>
        <span className="spacer" />
        <BookTag book={copy.book} />
        <CopyStatusTag status={copy.status} closed={closed} />
      </div>
      <span className="ct-title">
        {t('copy_copying')}{' '}
        <button
          type="button"
          className="link"
          style={{ padding: 0 }}
          onClick={() => navigateTo('copyTrader', { traderId: copy.traderId })}
        >
          {copy.traderName}
        </button>
      </span>
      <div className="ct-compare">
        <section data-testid={`copy-copy-${id}-leader`}>
          <strong>{t('copy_leaderSide')}</strong>
          <Line
            label={t('copy_entryPrice')}
            value={leader.entryPrice ?? '- -'}
            testId={`copy-copy-${id}-leader-price`}
          />
          <Line
            label={t('copy_entryTime')}
            value={timeText(leader.openTime)}
            testId={`copy-copy-${id}-leader-time`}
          />
          <Line
            label={t('copy_margin')}
            value={amountText(leader.margin, currency)}
            testId={`copy-copy-${id}-leader-margin`}
          />
          {leader.exitPrice !== null && (
            <Line label={t('copy_exitPrice')} value={leader.exitPrice} />
          )}
        </section>
        <section data-testid={`copy-copy-${id}-mine`}>
          <strong>{t('copy_mySide')}</strong>
          {position ? (
            <>
              <Line
                label={t('copy_entryPrice')}
                value={position.entryPrice ?? '- -'}
                testId={`copy-copy-${id}-price`}
              />
              <Line
                label={t('copy_entryTime')}
                value={timeText(position.openTime)}
                testId={`copy-copy-${id}-time`}
              />
              <Line
                label={t('copy_margin')}
                value={amountText(position.margin, currency)}
                testId={`copy-copy-${id}-margin`}
              />
              {position.exitPrice !== null && (
                <Line label={t('copy_exitPrice')} value={position.exitPrice} />
              )}
            </>
          ) : (
            <span className="muted">{t(failed ? 'copy_notOpened' : 'copy_copyPending')}</span>
          )}
        </section>
      </div>
      {failed && copy.reason && (
        <p className="ct-reason" data-testid={`copy-copy-${id}-reason`}>
          {t(copy.reason)}
        </p>
      )}
      {position && closed && (
        <Line
          label={t('copy_realized')}
          value={
            <Toned value={position.realizedPnl}>{pnlText(position.realizedPnl, currency)}</Toned>
          }
          number={false}
          testId={`copy-copy-${id}-pnl`}
          strong
        />
      )}
      {position && (
        <EvidenceTicks
          trade={position as { entry: TickEvidence | null; exit: TickEvidence | null }}
          titles={{ entry: t('copy_entryEvidence'), exit: t('copy_exitEvidence') }}
          testId={(side) => `copy-copy-${id}-${side}-tick`}
          priceScale={0}
          look={EVIDENCE_LOOK}
        />
      )}
      <Num className="muted ct-note">{timeText(copy.createTime)}</Num>
    </li>
  );
}

export default function CopiesPage() {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const relationId = Number(search.get('relationId')) || undefined;
  const list = useRecordPages<CopyRow, string>(copyKeys.copies(relationId), (page) =>
    fetchCopyPage(page, relationId),
  );
  return (
    <SignedInScreen testId="copy-copies-page" title={t('copy_copies')}>
      <RecordList
        list={list}
        className="card-list"
        testId="copy-copies"
        empty={{
          title: t('copy_noCopies'),
          text: t('copy_noCopiesText'),
          testId: 'copy-copies-empty',
        }}
      >
        <ul className="card-items">
          {list.rows.map((copy) => (
            <CopyCard key={copy.id} copy={copy} />
          ))}
        </ul>
      </RecordList>
    </SignedInScreen>
  );
}
