/**
 * An offering (/pages/newShares/detail?id=…): its terms (price, lot size, lots offered and per
 * user, fee, times, lock-up, identity level), its state with a countdown by the server's clock,
 * the book so far (subscribers, lots requested), the allocation rule published with it in words,
 * and the subscribe form (or the user's subscription, to change or cancel while the window is
 * open). Once allocated, the way to the published allocation and its proof; once listed, to its
 * market.
 */
import { useCallback } from 'react';
import { useSearchParams } from 'react-router';
import { Button } from 'antd-mobile';
import { useQueryClient } from '@tanstack/react-query';
import { OFFERING_STATUS, ORDER_DIRECTION, div, gt, toScale } from '@bourse/shared';
import { PageHeader } from '../../components/page-header';
import { EmptyState, ErrorState, ListSkeleton, Num } from '../../components/status-views';
import { useUser } from '../../hooks/use-user';
import { useTranslation } from '../../i18n/react';
import { navigateTo } from '../../lib/navigation';
import { newShareKeys, useMySubscription, useOffering, type Offering } from './api';
import {
  AllocationRule,
  Countdown,
  HistoryLink,
  Line,
  OfferingStatusTag,
  OfferingTerms,
  phaseOf,
  useServerNow,
} from './new-shares-parts';
import { SubscribeForm } from './subscribe-form';

/** The book so far: subscribers, lots requested against lots offered. */
function BookCard({ offering }: { offering: Offering }) {
  const { t } = useTranslation();
  const over = gt(offering.lotsRequested, offering.lotsOffered);
  return (
    <section className="card stack" data-testid="new-share-book">
      <h2 className="section-title ns-section-title">{t('newShares_book')}</h2>
      <div className="ns-terms">
        <Line
          label={t('newShares_subscribers')}
          value={String(offering.subscribers)}
          testId="new-share-subscribers"
        />
        <Line
          label={t('newShares_lotsRequested')}
          value={offering.lotsRequested}
          testId="new-share-requested"
        />
        <Line label={t('newShares_lotsOffered')} value={offering.lotsOffered} />
        {over && (
          <Line
            label={t('newShares_oversubscribed')}
            value={`× ${toScale(div(offering.lotsRequested, offering.lotsOffered, 2), 2)}`}
            testId="new-share-ratio"
          />
        )}
      </div>
    </section>
  );
}

function OfferingDetail({ offering }: { offering: Offering }) {
  const { t } = useTranslation();
  const { signedIn } = useUser();
  const queryClient = useQueryClient();
  const now = useServerNow();
  const phase = phaseOf(offering, now);
  const mine = useMySubscription(signedIn ? offering : undefined);
  const onDue = useCallback(
    () => void queryClient.invalidateQueries({ queryKey: newShareKeys.offerings }),
    [queryClient],
  );
  const allocated = phase === OFFERING_STATUS.allocated || phase === OFFERING_STATUS.listed;
  const subscription = offering.mySubscriptionId === null ? null : mine.data;
  return (
    <div className="stack">
      <section className="card stack" data-testid="new-share-detail">
        <div className="ns-card-head">
          <div className="ns-names">
            <strong className="ns-detail-name">{offering.name}</strong>
            <Num className="muted ns-code">{offering.code}</Num>
          </div>
          <OfferingStatusTag status={phase} />
        </div>
        <Countdown offering={offering} onDue={onDue} />
        {offering.description && <p className="ns-description">{offering.description}</p>}
        <OfferingTerms offering={offering} />
      </section>
      {phase !== OFFERING_STATUS.upcoming && <BookCard offering={offering} />}
      {allocated && (
        <Button
          block
          color="primary"
          fill="outline"
          data-testid="new-share-proof-link"
          onClick={() => navigateTo('newShareAllocation', { id: offering.id })}
        >
          {t('newShares_seeAllocation')}
        </Button>
      )}
      {phase === OFFERING_STATUS.listed && (
        <Button
          block
          color="primary"
          data-testid="new-share-market-link"
          onClick={() =>
            navigateTo('quoteDetail', {
              productType: offering.productType,
              productCode: offering.code,
              mode: 'spot',
              side: ORDER_DIRECTION.up,
            })
          }
        >
          {t('newShares_toMarket')}
        </Button>
      )}
      {phase === OFFERING_STATUS.cancelled && (
        <p className="ns-warning" data-testid="new-share-cancelled">
          {t('newShares_cancelledNote')}
        </p>
      )}
      {phase !== OFFERING_STATUS.cancelled &&
        (subscription === undefined ? (
          mine.isError ? (
            <ErrorState compact onRetry={() => void mine.refetch()} />
          ) : (
            <ListSkeleton rows={1} />
          )
        ) : (
          <SubscribeForm
            key={
              subscription
                ? `${subscription.id}:${subscription.lots}:${subscription.status}`
                : 'new'
            }
            offering={offering}
            subscription={subscription}
          />
        ))}
      <AllocationRule rule={offering.rule} />
    </div>
  );
}

export default function NewShareDetailPage() {
  const { t } = useTranslation();
  const { signedIn } = useUser();
  const [search] = useSearchParams();
  const id = Number(search.get('id'));
  const offering = useOffering(id, signedIn);
  return (
    <div className="page" data-testid="new-share-detail-page">
      <PageHeader title={t('newShares_detailTitle')} right={<HistoryLink />} />
      <div className="page-body">
        {!Number.isInteger(id) || id <= 0 || offering.isError ? (
          <EmptyState testId="new-share-missing" title={t('newShares_missing')} />
        ) : offering.data ? (
          <OfferingDetail offering={offering.data} />
        ) : (
          <ListSkeleton rows={3} />
        )}
      </div>
    </div>
  );
}
