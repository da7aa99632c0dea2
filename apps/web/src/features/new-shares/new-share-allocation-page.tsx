/**
 * The proof of an allocation (/pages/newShares/allocation?id=…): the rule, the lots offered and
 * requested, the canonical input text and its SHA-256 seed, the result table with the user's own
 * lines marked, and the allocation recomputed here in the browser with the published rule's own
 * function (`allocate`) from the published book alone, compared byte for byte with what the
 * server published: input, seed, result and every line. Nobody needs to trust the server's word;
 * `npm run ipo:verify -- <offering>` does the same outside the browser.
 */
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Button } from 'antd-mobile';
import { CheckCircleOutline, ExclamationCircleOutline } from 'antd-mobile-icons';
import type { OfferingAllocation } from '@bourse/shared';
import { PageHeader } from '../../components/page-header';
import { EmptyState, ListSkeleton, Num } from '../../components/status-views';
import { useUser } from '../../hooks/use-user';
import { useTranslation } from '../../i18n/react';
import { useAllocation } from './api';
import { AllocationRule, HistoryLink, Line, lotsText, timeText } from './new-shares-parts';
import { recompute } from './proof';

/** Rows of the result table shown at first, and added by each "show more". */
const TABLE_PAGE = 100;

function Verification({ allocation }: { allocation: OfferingAllocation }) {
  const { t } = useTranslation();
  const outcome = useMemo(() => recompute(allocation), [allocation]);
  return (
    <section
      className={`card ns-verify ${outcome.matches ? 'ns-verify-ok' : 'ns-verify-bad'}`}
      data-testid="new-share-verify"
      data-matches={outcome.matches}
    >
      {outcome.matches ? (
        <CheckCircleOutline fontSize={22} aria-hidden="true" />
      ) : (
        <ExclamationCircleOutline fontSize={22} aria-hidden="true" />
      )}
      <div className="ns-verify-text">
        <strong data-testid="new-share-verify-line">
          {outcome.matches ? t('newShares_recomputedMatches') : t('newShares_recomputedDiffers')}
        </strong>
        <span className="muted ns-small">
          {outcome.matches
            ? t('newShares_recomputedMatchesText')
            : t(`newShares_mismatch_${outcome.part}`)}
        </span>
      </div>
    </section>
  );
}

function ResultTable({ allocation }: { allocation: OfferingAllocation }) {
  const { t } = useTranslation();
  const [shown, setShown] = useState(TABLE_PAGE);
  const mine = new Set(allocation.mySubscriptionIds);
  return (
    <section className="card stack" data-testid="new-share-result">
      <h2 className="section-title ns-section-title">{t('newShares_resultTitle')}</h2>
      <table className="ns-table">
        <thead>
          <tr>
            <th scope="col">{t('newShares_subscriptionId')}</th>
            <th scope="col">{t('newShares_lotsRequestedShort')}</th>
            <th scope="col">{t('newShares_allocatedShort')}</th>
          </tr>
        </thead>
        <tbody>
          {allocation.lines.slice(0, shown).map((line) => (
            <tr
              key={line.id}
              className={mine.has(line.id) ? 'ns-mine-row' : undefined}
              data-testid={`new-share-line-${line.id}`}
              data-mine={mine.has(line.id)}
            >
              <td>
                <Num className="ns-mono">{line.id}</Num>
                {mine.has(line.id) && (
                  <span className="list-tag list-tag-accent ns-you">{t('newShares_you')}</span>
                )}
              </td>
              <td>
                <Num>{line.lots}</Num>
              </td>
              <td>
                <Num>{line.allocated}</Num>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {allocation.lines.length > shown && (
        <Button
          size="small"
          fill="none"
          color="primary"
          data-testid="new-share-result-more"
          onClick={() => setShown((count) => count + TABLE_PAGE)}
        >
          {t('newShares_showMore')}
        </Button>
      )}
    </section>
  );
}

function Proof({ allocation }: { allocation: OfferingAllocation }) {
  const { t } = useTranslation();
  const mine = allocation.lines.filter((line) => allocation.mySubscriptionIds.includes(line.id));
  return (
    <div className="stack">
      <section className="card stack" data-testid="new-share-allocation">
        <div className="ns-card-head">
          <strong className="ns-detail-name">
            <Num>{allocation.code}</Num>
          </strong>
          <Num className="list-tag">{allocation.rule}</Num>
        </div>
        <div className="ns-terms">
          <Line label={t('newShares_lotsOffered')} value={allocation.lotsOffered} />
          <Line
            label={t('newShares_lotsRequested')}
            value={allocation.lotsRequested}
            testId="new-share-allocation-requested"
          />
          <Line
            label={t('newShares_allocatedLots')}
            value={allocation.lotsAllocated}
            testId="new-share-allocation-allocated"
          />
          <Line
            label={t('newShares_oversubscribed')}
            value={t(allocation.oversubscribed ? 'newShares_yes' : 'newShares_no')}
            number={false}
          />
          <Line label={t('newShares_allocatedAt')} value={timeText(allocation.allocatedAt)} />
        </div>
      </section>
      <Verification allocation={allocation} />
      {mine.length > 0 && (
        <section className="card stack" data-testid="new-share-my-lines">
          <h2 className="section-title ns-section-title">{t('newShares_myLines')}</h2>
          {mine.map((line) => (
            <div
              className="ns-terms ns-my-line"
              key={line.id}
              data-testid={`new-share-my-${line.id}`}
            >
              <Line label={t('newShares_subscriptionId')} value={line.id} />
              <Line label={t('newShares_lotsAsked')} value={lotsText(line.lots)} number={false} />
              <Line
                label={t('newShares_allocatedLots')}
                value={lotsText(line.allocated)}
                number={false}
                testId={`new-share-my-${line.id}-allocated`}
                strong
              />
            </div>
          ))}
        </section>
      )}
      <section className="card stack" data-testid="new-share-seed">
        <h2 className="section-title ns-section-title">{t('newShares_seed')}</h2>
        <p className="muted ns-small">{t('newShares_seedText')}</p>
        <Num className="ns-mono ns-seed">{allocation.seed}</Num>
      </section>
      <section className="card stack" data-testid="new-share-input">
        <h2 className="section-title ns-section-title">{t('newShares_input')}</h2>
        <p className="muted ns-small">{t('newShares_inputText')}</p>
        <pre className="ns-mono ns-pre" dir="ltr" tabIndex={0} data-testid="new-share-input-text">
          {allocation.input}
        </pre>
      </section>
      <ResultTable allocation={allocation} />
      <AllocationRule rule={allocation.rule} />
      <section className="card stack">
        <h2 className="section-title ns-section-title">{t('newShares_verifyYourself')}</h2>
        <p className="muted ns-small">{t('newShares_verifyYourselfText')}</p>
        <pre
          className="ns-mono ns-pre"
          dir="ltr"
        >{`npm run ipo:verify -- ${allocation.offeringId}`}</pre>
      </section>
    </div>
  );
}

export default function NewShareAllocationPage() {
  const { t } = useTranslation();
  const { signedIn } = useUser();
  const [search] = useSearchParams();
  const id = Number(search.get('id'));
  const allocation = useAllocation(id, signedIn);
  return (
    <div className="page" data-testid="new-share-allocation-page">
      <PageHeader title={t('newShares_allocationTitle')} right={<HistoryLink />} />
      <div className="page-body">
        {!Number.isInteger(id) || id <= 0 || allocation.isError ? (
          <EmptyState
            testId="new-share-allocation-missing"
            title={t('newShares_allocationMissing')}
            text={t('newShares_allocationMissingText')}
          />
        ) : allocation.data ? (
          <Proof allocation={allocation.data} />
        ) : (
          <ListSkeleton rows={4} />
        )}
      </div>
    </div>
  );
}
