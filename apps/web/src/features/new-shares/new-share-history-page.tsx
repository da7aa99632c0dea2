/**
 * The user's subscriptions (/pages/newShares/his), newest first, of US stocks, crypto or both:
 * lots asked and what was frozen, lots allocated and their quantity, what was paid and refunded,
 * the state, and the lock-up (locked until, or sellable: the way to the spot form of its market);
 * the way to each offering and, once allocated, to the published allocation and its proof.
 */
import { useEffect, useRef } from 'react';
import { Button } from 'antd-mobile';
import {
  OFFERING_STATUS,
  ORDER_DIRECTION,
  PRODUCT_TYPE,
  SUBSCRIPTION_STATUS,
  formatDateTime,
} from '@bourse/shared';
import { RecordList, RecordTabs, useRecordPages } from '../../components/record-list';
import { SignedInScreen } from '../../components/signed-in-screen';
import { Num } from '../../components/status-views';
import { useTranslation } from '../../i18n/react';
import { navigateTo } from '../../lib/navigation';
import { fetchSubscriptionPage, newShareKeys, type NewShareType, type Subscription } from './api';
import {
  amountText,
  Line,
  lotsText,
  quantityText,
  SubscriptionStatusTag,
  timeText,
} from './new-shares-parts';

const FILTERS = [
  ['all', 'newShares_typeAll'],
  [1, 'newShares_typeStock'],
  [2, 'newShares_typeCrypto'],
] as const;

/** Where the allocated shares stand: to be listed, locked until a time, or sellable. */
function LockUpLine({ subscription }: { subscription: Subscription }) {
  const { t } = useTranslation();
  if (subscription.status !== SUBSCRIPTION_STATUS.allocated) return null;
  const testId = `new-share-sub-${subscription.id}-lock`;
  if (subscription.sellable)
    return (
      <Line
        label={t('newShares_lockUp')}
        value={<span className="ns-sellable">{t('newShares_sellable')}</span>}
        number={false}
        testId={testId}
      />
    );
  if (subscription.offeringStatus !== OFFERING_STATUS.listed)
    return (
      <Line
        label={t('newShares_listsOn')}
        value={timeText(subscription.listingTime)}
        testId={testId}
      />
    );
  return (
    <Line
      label={t('newShares_lockedUntil')}
      value={subscription.lockedUntil ? timeText(subscription.lockedUntil) : '- -'}
      testId={testId}
    />
  );
}

function SubscriptionCard({ subscription }: { subscription: Subscription }) {
  const { t } = useTranslation();
  const id = subscription.id;
  const allocationPublished =
    (subscription.offeringStatus === OFFERING_STATUS.allocated ||
      subscription.offeringStatus === OFFERING_STATUS.listed) &&
    subscription.status !== SUBSCRIPTION_STATUS.cancelled;
  return (
    <li className="card ns-card" data-testid={`new-share-sub-${id}`}>
      <div className="ns-card-head">
        <div className="ns-names">
          <strong className="ns-name">{subscription.name}</strong>
          <Num className="muted ns-code">{subscription.code}</Num>
        </div>
        <SubscriptionStatusTag status={subscription.status} />
      </div>
      <Line label={t('newShares_orderNo')} value={subscription.orderNo} />
      <Line
        label={t('newShares_offerPrice')}
        value={amountText(subscription.price, subscription)}
      />
      <Line
        label={t('newShares_lotsAsked')}
        value={lotsText(subscription.lots)}
        number={false}
        testId={`new-share-sub-${id}-lots`}
      />
      <Line
        label={t('newShares_frozen')}
        value={amountText(subscription.frozen, subscription)}
        testId={`new-share-sub-${id}-frozen`}
      />
      {subscription.allocatedLots !== null && (
        <Line
          label={t('newShares_allocatedLots')}
          value={
            <>
              {lotsText(subscription.allocatedLots)}
              {subscription.allocatedQuantity !== null && (
                <>
                  {' '}
                  <Num>({quantityText(subscription.allocatedQuantity, subscription)})</Num>
                </>
              )}
            </>
          }
          number={false}
          testId={`new-share-sub-${id}-allocated`}
          strong
        />
      )}
      {subscription.paid !== null && (
        <Line
          label={t('newShares_paid')}
          value={amountText(subscription.paid, subscription)}
          testId={`new-share-sub-${id}-paid`}
        />
      )}
      {subscription.refunded !== null && (
        <Line
          label={t('newShares_refunded')}
          value={amountText(subscription.refunded, subscription)}
          testId={`new-share-sub-${id}-refunded`}
        />
      )}
      <LockUpLine subscription={subscription} />
      <div className="ns-card-foot ns-card-foot-wrap">
        <Num className="muted ns-small ns-time">{formatDateTime(subscription.createTime)}</Num>
        <span className="spacer" />
        <Button
          size="small"
          fill="outline"
          data-testid={`new-share-sub-${id}-offering`}
          onClick={() => navigateTo('newShareDetail', { id: subscription.offeringId })}
        >
          {t('newShares_view')}
        </Button>
        {allocationPublished && (
          <Button
            size="small"
            fill="outline"
            color="primary"
            data-testid={`new-share-sub-${id}-proof`}
            onClick={() => navigateTo('newShareAllocation', { id: subscription.offeringId })}
          >
            {t('newShares_proof')}
          </Button>
        )}
        {subscription.sellable && subscription.productId !== null && (
          <Button
            size="small"
            color="primary"
            data-testid={`new-share-sub-${id}-sell`}
            onClick={() =>
              // A coin is sold coin to coin (it is in the wallet); a stock on its spot form.
              subscription.productType === PRODUCT_TYPE.crypto
                ? navigateTo('bibi', { productCode: subscription.code, side: ORDER_DIRECTION.down })
                : navigateTo('quoteDetail', {
                    productType: subscription.productType,
                    productCode: subscription.code,
                    mode: 'spot',
                    side: ORDER_DIRECTION.down,
                  })
            }
          >
            {t('newShares_sell')}
          </Button>
        )}
      </div>
    </li>
  );
}

export default function NewShareHistoryPage() {
  const { t } = useTranslation();
  const list = useRecordPages<Subscription, NewShareType>(
    newShareKeys.subscriptions,
    (page, type) => fetchSubscriptionPage(page, type),
  );
  // States move with time (the allocation, the listing, the lock-up's end): opened again, the
  // screen reads them again rather than show what it read moments ago.
  const { records } = list;
  const opened = useRef(false);
  useEffect(() => {
    if (opened.current) return;
    opened.current = true;
    if (records.isSuccess && !records.isFetching) void records.refetch();
  }, [records]);
  return (
    <SignedInScreen testId="new-share-history-page" title={t('newShares_mySubscriptions')}>
      <RecordTabs list={list} label="newShares_type" filters={FILTERS} testId="new-share-type" />
      <div role="tabpanel">
        <RecordList
          list={list}
          className="card-list"
          testId="new-share-subscriptions"
          empty={{
            title: t('newShares_noSubscriptions'),
            testId: 'new-share-subscriptions-empty',
            action: { label: t('newShares_browse'), onClick: () => navigateTo('newShares') },
          }}
        >
          <ul className="card-items">
            {list.rows.map((subscription) => (
              <SubscriptionCard key={subscription.id} subscription={subscription} />
            ))}
          </ul>
        </RecordList>
      </div>
    </SignedInScreen>
  );
}
