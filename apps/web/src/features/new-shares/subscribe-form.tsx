/**
 * Subscribing to an open offering, or changing or cancelling the user's subscription while the
 * window is open: a lots stepper (whole lots between the offering's minimum and maximum), the
 * cost preview worked out by the function the server freezes with (`subscriptionCost`: the amount
 * and the fee rounded up to the currency's decimals, and their total frozen), the available
 * balance, then a confirm sheet with every figure. Each confirmed order has its own request id;
 * a retry of the same order reuses it, so nothing is frozen twice.
 */
import { useState } from 'react';
import { Button, Input } from 'antd-mobile';
import { AddOutline, MinusOutline } from 'antd-mobile-icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  OFFERING_STATUS,
  SUBSCRIPTION_STATUS,
  add,
  formatMessage,
  gt,
  sub,
  subscriptionCost,
  type SubscriptionCost,
} from '@bourse/shared';
import { BottomSheet } from '../../components/bottom-sheet';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { DemoBadge, useDemoAccount } from '../../components/demo-account';
import { Field } from '../../components/field';
import { SheetButtons } from '../../components/sheet-buttons';
import { Num } from '../../components/status-views';
import { useSubmit } from '../../hooks/use-submit';
import { useUser } from '../../hooks/use-user';
import { useTranslation } from '../../i18n/react';
import { currentHref, navigateTo } from '../../lib/navigation';
import { showToast } from '../../lib/toast';
import { fetchBalance, useRequestId } from '../../lib/trade';
import {
  cancelSubscription,
  changeSubscription,
  newShareKeys,
  subscribe,
  type Offering,
  type Subscription,
} from './api';
import {
  amountText,
  Line,
  lotsText,
  phaseOf,
  quantityText,
  useServerNow,
} from './new-shares-parts';

/** Lots may be typed up to ten digits (the contract's bound). */
const LOTS_DIGITS = 10;

/** What is wrong with the lots typed, or undefined. */
function lotsProblem(
  text: string,
  offering: Offering,
  cost: SubscriptionCost | undefined,
  spendable: string | undefined,
  t: (key: string) => string,
): string | undefined {
  if (!/^[1-9][0-9]*$/.test(text)) return t('newShares_lotsInvalid');
  const lots = BigInt(text);
  if (lots < BigInt(offering.minLots))
    return formatMessage(t('newShares_lotsBelow'), [offering.minLots]);
  if (lots > BigInt(offering.maxLots))
    return formatMessage(t('newShares_lotsAbove'), [offering.maxLots]);
  if (cost && spendable !== undefined && gt(cost.total, spendable))
    return t('newShares_lotsBalance');
  return undefined;
}

/** Minus, the lots, plus: whole lots within the offering's bounds. */
function LotsStepper({
  value,
  onChange,
  offering,
  error,
}: {
  value: string;
  onChange: (value: string) => void;
  offering: Offering;
  error: string | undefined;
}) {
  const { t } = useTranslation();
  const lots = /^[0-9]+$/.test(value) ? BigInt(value) : undefined;
  const min = BigInt(offering.minLots);
  const max = BigInt(offering.maxLots);
  const step = (by: bigint) => {
    const next = lots === undefined ? min : lots + by;
    onChange(String(next < min ? min : next > max ? max : next));
  };
  return (
    <Field label={t('newShares_lots')} htmlFor="new-share-lots" error={error}>
      <button
        type="button"
        className="ns-step"
        aria-label={t('newShares_lotsLess')}
        data-testid="new-share-lots-minus"
        disabled={lots !== undefined && lots <= min}
        onClick={() => step(-1n)}
      >
        <MinusOutline />
      </button>
      <Input
        id="new-share-lots"
        className="ns-lots-input"
        inputMode="numeric"
        autoComplete="off"
        maxLength={LOTS_DIGITS}
        value={value}
        onChange={(typed) => onChange(typed.replace(/[^0-9]/g, ''))}
      />
      <button
        type="button"
        className="ns-step"
        aria-label={t('newShares_lotsMore')}
        data-testid="new-share-lots-plus"
        disabled={lots !== undefined && lots >= max}
        onClick={() => step(1n)}
      >
        <AddOutline />
      </button>
    </Field>
  );
}

/** The figures of `lots`: quantity, amount, fee and the total frozen. */
function CostLines({
  offering,
  cost,
  prefix,
}: {
  offering: Offering;
  cost: SubscriptionCost;
  prefix: string;
}) {
  const { t } = useTranslation();
  return (
    <>
      <Line
        label={t('newShares_quantity')}
        value={quantityText(cost.quantity, offering)}
        testId={`${prefix}-quantity`}
      />
      <Line
        label={t('newShares_amount')}
        value={amountText(cost.amount, offering)}
        testId={`${prefix}-amount`}
      />
      <Line
        label={t('newShares_fee')}
        value={amountText(cost.fee, offering)}
        testId={`${prefix}-fee`}
      />
      <Line
        label={t('newShares_totalFrozen')}
        value={amountText(cost.total, offering)}
        testId={`${prefix}-total`}
        strong
      />
    </>
  );
}

/** The user's subscription of this offering, as it stands. */
function MySubscription({ subscription }: { subscription: Subscription }) {
  const { t } = useTranslation();
  return (
    <div className="ns-terms ns-mine" data-testid="new-share-mine">
      <strong>{t('newShares_mySubscription')}</strong>
      <Line label={t('newShares_orderNo')} value={subscription.orderNo} />
      <Line
        label={t('newShares_lotsAsked')}
        value={lotsText(subscription.lots)}
        number={false}
        testId="new-share-mine-lots"
      />
      {subscription.status === SUBSCRIPTION_STATUS.open && (
        <Line
          label={t('newShares_frozen')}
          value={amountText(subscription.frozen, subscription)}
          testId="new-share-mine-frozen"
        />
      )}
      {subscription.allocatedLots !== null && (
        <Line
          label={t('newShares_allocatedLots')}
          value={lotsText(subscription.allocatedLots)}
          number={false}
          testId="new-share-mine-allocated"
        />
      )}
    </div>
  );
}

export function SubscribeForm({
  offering,
  subscription,
}: {
  offering: Offering;
  /** The user's open or allocated subscription of it (null: none). */
  subscription: Subscription | null;
}) {
  const { t } = useTranslation();
  const { user, signedIn } = useUser();
  const demo = useDemoAccount();
  const queryClient = useQueryClient();
  const now = useServerNow();
  const open = phaseOf(offering, now) === OFFERING_STATUS.subscribing;
  const mine =
    subscription && subscription.status === SUBSCRIPTION_STATUS.open ? subscription : null;
  const [lots, setLots] = useState(() => (mine ? mine.lots : offering.minLots));
  const [touched, setTouched] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [cancelling, setCancelling] = useState(false);
  const request = useRequestId('ipo');
  const balance = useQuery({
    queryKey: ['userBalance', offering.currencyId, user?.accountType],
    queryFn: () => fetchBalance(offering.currencyId),
    enabled: signedIn && !demo,
  });
  const available = balance.data?.amount;
  // A change may use what the subscription froze already.
  const spendable =
    available === undefined ? undefined : mine ? add(available, mine.frozen) : available;
  const cost = /^[1-9][0-9]{0,9}$/.test(lots)
    ? subscriptionCost(offering, lots, offering.scale)
    : undefined;
  const problem = lotsProblem(lots, offering, cost, spendable, t);
  const identityMissing =
    offering.minAuthLevel >= 0 && user !== undefined && user.authLevel < offering.minAuthLevel;

  const refreshAfter = async () => {
    request.reset();
    void queryClient.invalidateQueries({ queryKey: ['userBalance'] });
    void queryClient.invalidateQueries({ queryKey: ['balances'] });
    void queryClient.invalidateQueries({ queryKey: newShareKeys.subscriptions });
    await queryClient.invalidateQueries({ queryKey: newShareKeys.offerings });
  };

  const place = useSubmit(async () => {
    if (!cost || problem) return;
    if (mine) {
      await changeSubscription({
        id: mine.id,
        lots,
        requestId: request.idFor(`change:${mine.id}:${lots}`),
      });
      showToast(t('newShares_changed'));
    } else {
      await subscribe({
        offeringId: offering.id,
        lots,
        requestId: request.idFor(`subscribe:${offering.id}:${lots}`),
      });
      showToast(t('newShares_subscribed'));
    }
    setConfirming(false);
    setTouched(false);
    await refreshAfter();
  });

  const cancel = useSubmit(async () => {
    if (!mine) return;
    await cancelSubscription({ id: mine.id, requestId: request.idFor(`cancel:${mine.id}`) });
    setCancelling(false);
    setLots(offering.minLots);
    showToast(t('newShares_cancelled'));
    await refreshAfter();
  });

  if (!signedIn)
    return (
      <Button
        block
        color="primary"
        data-testid="new-share-sign-in"
        onClick={() => navigateTo('login', { redirect: currentHref() })}
      >
        {t('newShares_signInToSubscribe')}
      </Button>
    );

  if (demo)
    return (
      <section className="card stack" data-testid="new-share-demo">
        <div className="row">
          <DemoBadge />
        </div>
        <p className="ns-note">{t('newShares_liveOnly')}</p>
      </section>
    );

  // Allocated, refunded, or the window closed: the subscription as it stands, no form.
  if (subscription && (!mine || !open))
    return (
      <section className="card stack ns-buy" data-testid="new-share-subscribe">
        <MySubscription subscription={subscription} />
        <Button
          block
          fill="outline"
          data-testid="new-share-to-history"
          onClick={() => navigateTo('newShareHistory')}
        >
          {t('newShares_mySubscriptions')}
        </Button>
      </section>
    );

  if (!open) return null;

  const unchanged = mine !== null && lots === mine.lots;
  return (
    <section className="card stack ns-buy" data-testid="new-share-subscribe">
      {mine && <MySubscription subscription={mine} />}
      {identityMissing && (
        <p className="ns-warning" data-testid="new-share-identity">
          {t('newShares_identityNeeded')}{' '}
          <button type="button" className="link" onClick={() => navigateTo('authentication')}>
            {t('newShares_verifyNow')}
          </button>
        </p>
      )}
      <div className="row">
        <span className="muted">{t('newShares_available')}</span>
        <span className="spacer" />
        <Num testId="new-share-available">
          {available === undefined ? '- -' : amountText(available, offering)}
        </Num>
      </div>
      <LotsStepper
        value={lots}
        offering={offering}
        error={touched ? problem : undefined}
        onChange={(value) => {
          setLots(value);
          setTouched(true);
        }}
      />
      {cost && (
        <div className="ns-terms" data-testid="new-share-preview">
          <CostLines offering={offering} cost={cost} prefix="new-share-preview" />
          {mine && (
            <Line
              label={t('newShares_frozenNow')}
              value={amountText(mine.frozen, offering)}
              testId="new-share-preview-frozen-now"
            />
          )}
        </div>
      )}
      <Button
        block
        color="primary"
        disabled={identityMissing || unchanged}
        data-testid="new-share-subscribe-button"
        onClick={() => {
          setTouched(true);
          if (cost && !problem) setConfirming(true);
        }}
      >
        {t(mine ? 'newShares_change' : 'newShares_subscribe')}
      </Button>
      {mine && (
        <Button
          block
          fill="outline"
          color="danger"
          data-testid="new-share-cancel-button"
          onClick={() => setCancelling(true)}
        >
          {t('newShares_cancelSubscription')}
        </Button>
      )}
      <p className="muted ns-small">{t('newShares_freezeNote')}</p>
      <BottomSheet
        visible={confirming && cost !== undefined}
        onClose={() => setConfirming(false)}
        onMaskClick={() => !place.pending && setConfirming(false)}
        destroyOnClose
        bodyClassName="trade-sheet"
      >
        {cost && (
          <div className="stack" data-testid="new-share-confirm">
            <h2 className="sheet-title">
              {t(mine ? 'newShares_confirmChange' : 'newShares_confirmTitle')}
            </h2>
            <div className="ns-terms">
              <Line
                label={t('newShares_offering')}
                value={`${offering.name} (${offering.code})`}
                number={false}
              />
              <Line
                label={t('newShares_offerPrice')}
                value={amountText(offering.price, offering)}
              />
              <Line
                label={t('newShares_lots')}
                value={lotsText(lots)}
                number={false}
                testId="new-share-confirm-lots"
                strong
              />
              <CostLines offering={offering} cost={cost} prefix="new-share-confirm" />
              {spendable !== undefined && (
                <Line
                  label={t('newShares_availableAfter')}
                  value={amountText(sub(spendable, cost.total), offering)}
                  testId="new-share-confirm-after"
                />
              )}
            </div>
            <p className="muted ns-small">{t('newShares_confirmNote')}</p>
            <SheetButtons
              pending={place.pending}
              onCancel={() => setConfirming(false)}
              label={t('newShares_confirm')}
              testId="new-share-confirm-button"
              onConfirm={() => void place.submit()}
            />
          </div>
        )}
      </BottomSheet>
      <ConfirmDialog
        visible={cancelling}
        title={t('newShares_cancelSubscription')}
        content={
          mine && (
            <div className="ns-terms" data-testid="new-share-cancel-text">
              <span>{t('newShares_cancelText')}</span>
              <Line
                label={t('newShares_released')}
                value={amountText(mine.frozen, offering)}
                testId="new-share-cancel-released"
              />
            </div>
          )
        }
        pending={cancel.pending}
        onClose={() => setCancelling(false)}
        onConfirm={() => void cancel.submit()}
        confirmText={t('newShares_cancelConfirm')}
      />
    </section>
  );
}
