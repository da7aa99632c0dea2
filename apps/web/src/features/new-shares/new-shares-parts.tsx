/**
 * Pieces of the new-shares screens: an offering's state (from its times by the server's clock, as
 * the API reports it), its countdown, card and terms, the published allocation rule in words, a
 * subscription's state, and a label with its value. Amounts are shown at the currency's decimals,
 * lots as whole numbers; figures, codes and dates stay left-to-right islands in Arabic.
 */
import { useEffect, useRef, useState } from 'react';
import { Button } from 'antd-mobile';
import {
  OFFERING_STATUS,
  SUBSCRIPTION_STATUS,
  formatDateTime,
  formatMessage,
  isZero,
  normalize,
  offeringPhase,
  type OfferingStatus,
} from '@bourse/shared';
import { LabelRow, type LabelRowProps } from '../../components/label-row';
import { Num } from '../../components/status-views';
import { translate } from '../../i18n';
import { useTranslation } from '../../i18n/react';
import { useUser } from '../../hooks/use-user';
import { navigateTo } from '../../lib/navigation';
import { money, percentText } from '../../lib/trade';
import { serverNow, type Offering } from './api';
import '../../components/card-list.css';
import './new-shares.css';
import { ListTag as Tag } from '../../components/list-tag';

const LINE_CLASSES = { row: 'ns-line', strong: 'ns-line-strong', value: 'ns-line-value' };

/** A label and its value on one line; figures and dates stay one left-to-right island. */
export function Line(props: LabelRowProps) {
  return <LabelRow {...props} classes={LINE_CLASSES} />;
}

/** An amount with its currency: "1,000.00 USD". */
export function amountText(value: string, figures: { scale: number; currency: string }): string {
  return `${money(value, figures.scale)} ${figures.currency}`;
}

/** The coin a crypto pair trades: NOVA of NOVAUSDT (priced in USDT), else the code itself. */
export function coinOf(offering: { code: string; currency: string }): string {
  const { code, currency } = offering;
  return code.endsWith(currency) && code.length > currency.length
    ? code.slice(0, -currency.length)
    : code;
}

/** Shares of a stock ("100 shares") or coins of a crypto ("0.5 NOVA"). */
export function quantityText(
  value: string,
  offering: { productType: number; code: string; currency: string },
): string {
  const quantity = normalize(value);
  return offering.productType === 1
    ? translate('newShares_sharesCount', [quantity])
    : `${quantity} ${coinOf(offering)}`;
}

/** "12 lots". */
export function lotsText(lots: string | bigint): string {
  return translate('newShares_lotsCount', [String(lots)]);
}

/** A local date and time (yyyy/MM/dd HH:mm). */
export function timeText(iso: string): string {
  return formatDateTime(iso);
}

/** The header's link to the user's subscriptions. */
export function HistoryLink() {
  const { t } = useTranslation();
  const { signedIn } = useUser();
  if (!signedIn) return null;
  return (
    <button
      type="button"
      className="link ns-header-link"
      data-testid="new-shares-history-link"
      onClick={() => navigateTo('newShareHistory')}
    >
      {t('newShares_mySubscriptions')}
    </button>
  );
}

// ------------------------------------------------------------------ the clock and the states

/** The server's now, re-read every second while `live`. */
export function useServerNow(live = true): number {
  const [now, setNow] = useState(serverNow);
  useEffect(() => {
    if (!live) return;
    const timer = setInterval(() => setNow(serverNow()), 1000);
    return () => clearInterval(timer);
  }, [live]);
  return now;
}

/** The offering's state now: its stored state, moved on by its times. */
export function phaseOf(offering: Offering, now: number): OfferingStatus {
  return offeringPhase(offering, now);
}

const STATUS_KEY: Record<number, string> = {
  [OFFERING_STATUS.upcoming]: 'newShares_status0',
  [OFFERING_STATUS.subscribing]: 'newShares_status1',
  [OFFERING_STATUS.allocating]: 'newShares_status2',
  [OFFERING_STATUS.allocated]: 'newShares_status3',
  [OFFERING_STATUS.listed]: 'newShares_status4',
  [OFFERING_STATUS.cancelled]: 'newShares_status5',
};

const STATUS_TONE: Record<number, string> = {
  [OFFERING_STATUS.upcoming]: 'primary',
  [OFFERING_STATUS.subscribing]: 'success',
  [OFFERING_STATUS.allocating]: 'accent',
  [OFFERING_STATUS.allocated]: 'accent',
  [OFFERING_STATUS.cancelled]: 'danger',
};

export function OfferingStatusTag({ status }: { status: OfferingStatus }) {
  const { t } = useTranslation();
  return (
    <Tag
      tone={STATUS_TONE[status]}
      testId="new-share-status"
      status={status}
      text={t(STATUS_KEY[status] ?? 'newShares_status0')}
    />
  );
}

const SUBSCRIPTION_KEY: Record<number, string> = {
  [SUBSCRIPTION_STATUS.open]: 'newShares_subStatus0',
  [SUBSCRIPTION_STATUS.allocated]: 'newShares_subStatus1',
  [SUBSCRIPTION_STATUS.refunded]: 'newShares_subStatus2',
  [SUBSCRIPTION_STATUS.cancelled]: 'newShares_subStatus3',
};

const SUBSCRIPTION_TONE: Record<number, string> = {
  [SUBSCRIPTION_STATUS.open]: 'accent',
  [SUBSCRIPTION_STATUS.allocated]: 'success',
};

export function SubscriptionStatusTag({ status }: { status: number }) {
  const { t } = useTranslation();
  return (
    <Tag
      tone={SUBSCRIPTION_TONE[status]}
      testId="new-share-subscription-status"
      status={status}
      text={t(SUBSCRIPTION_KEY[status] ?? 'newShares_subStatus0')}
    />
  );
}

/** Whole days, and the hours, minutes and seconds after them ("03:04:05"), to go. */
export function timeLeft(ms: number): { days: number; clock: string } {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  const pad = (value: number) => String(value).padStart(2, '0');
  return {
    days: Math.floor(seconds / 86_400),
    clock: `${pad(Math.floor((seconds % 86_400) / 3600))}:${pad(Math.floor((seconds % 3600) / 60))}:${pad(seconds % 60)}`,
  };
}

/** "2d 03:04:05" (the days in the language's words and direction, the clock left to right). */
function TimeLeft({ ms }: { ms: number }) {
  const { days, clock } = timeLeft(ms);
  return (
    <span className="ns-countdown-time">
      {days > 0 && `${translate('newShares_daysShort', [days])} `}
      <Num>{clock}</Num>
    </span>
  );
}

/** What the offering waits for next, and when: the label's key and the time (or none). */
function nextStep(
  offering: Offering,
  phase: OfferingStatus,
): { key: string; at: string | null } | undefined {
  switch (phase) {
    case OFFERING_STATUS.upcoming:
      return { key: 'newShares_opensIn', at: offering.subscribeStart };
    case OFFERING_STATUS.subscribing:
      return { key: 'newShares_closesIn', at: offering.subscribeEnd };
    case OFFERING_STATUS.allocating:
      return { key: 'newShares_allocatesIn', at: offering.allocationTime };
    case OFFERING_STATUS.allocated:
      return { key: 'newShares_listsIn', at: offering.listingTime };
    default:
      return undefined;
  }
}

/**
 * The countdown to the offering's next step by the server's clock ("Closes in 01:02:03"); once a
 * step is due and the server has yet to report it, "Under way". `onDue` runs once when it is due.
 */
export function Countdown({ offering, onDue }: { offering: Offering; onDue?: () => void }) {
  const { t } = useTranslation();
  const phase = phaseOf(offering, serverNow());
  const step = nextStep(offering, phase);
  const now = useServerNow(step !== undefined);
  const dueFor = useRef<string | undefined>(undefined);
  const left = step?.at ? Date.parse(step.at) - now : 0;
  const due = step !== undefined && left <= 0;
  useEffect(() => {
    if (!due || !step || dueFor.current === step.key) return;
    dueFor.current = step.key;
    onDue?.();
  }, [due, step, onDue]);
  if (!step) {
    if (phase === OFFERING_STATUS.listed)
      return (
        <span className="ns-countdown" data-testid="new-share-countdown">
          <span className="muted">{t('newShares_listedAt')}</span>{' '}
          <Num>{timeText(offering.listingTime)}</Num>
        </span>
      );
    return null;
  }
  return (
    <span className="ns-countdown" data-testid="new-share-countdown">
      <span className="muted">{t(step.key)}</span>{' '}
      {due ? <span>{t('newShares_underWay')}</span> : <TimeLeft ms={left} />}
    </span>
  );
}

// ------------------------------------------------------------------ an offering

/** "100 shares" or "1 NEWC" per lot. */
export function lotSizeText(offering: Offering): string {
  return quantityText(offering.lotSize, offering);
}

function identityText(level: number): string {
  if (level < 0) return translate('newShares_levelNone');
  return translate(level === 0 ? 'newShares_levelBasic' : 'newShares_levelAdvanced');
}

/** An offering in a list: name, code, price, lots, window, countdown and state. */
export function OfferingCard({
  offering,
  now,
  onOpen,
  onDue,
}: {
  offering: Offering;
  now: number;
  onOpen: () => void;
  onDue: () => void;
}) {
  const { t } = useTranslation();
  const phase = phaseOf(offering, now);
  return (
    <li className="card ns-card" data-testid={`new-share-${offering.id}`}>
      <div className="ns-card-head">
        <div className="ns-names">
          <strong className="ns-name">{offering.name}</strong>
          <Num className="muted ns-code">{offering.code}</Num>
        </div>
        <OfferingStatusTag status={phase} />
      </div>
      <div className="ns-figures">
        <div className="ns-figure">
          <span className="muted">{t('newShares_offerPrice')}</span>
          <strong className="ns-price" data-testid={`new-share-${offering.id}-price`}>
            <Num>{amountText(offering.price, offering)}</Num>
          </strong>
        </div>
        <div className="ns-figure ns-figure-end">
          <span className="muted">{t('newShares_lotsOffered')}</span>
          <Num>{offering.lotsOffered}</Num>
        </div>
      </div>
      <Line label={t('newShares_lotSize')} value={lotSizeText(offering)} />
      <Line
        label={t('newShares_window')}
        value={`${timeText(offering.subscribeStart)} – ${timeText(offering.subscribeEnd)}`}
      />
      {phase !== OFFERING_STATUS.upcoming && phase !== OFFERING_STATUS.cancelled && (
        <Line
          label={t('newShares_lotsRequested')}
          value={offering.lotsRequested}
          testId={`new-share-${offering.id}-requested`}
        />
      )}
      <div className="ns-card-foot">
        <Countdown offering={offering} onDue={onDue} />
        <span className="spacer" />
        <Button
          size="small"
          color="primary"
          data-testid={`new-share-${offering.id}-open`}
          onClick={onOpen}
        >
          {t(phase === OFFERING_STATUS.subscribing ? 'newShares_subscribe' : 'newShares_view')}
        </Button>
      </div>
    </li>
  );
}

/** Everything an offering states: price, lots, limits, fee, times, lock-up, identity level. */
export function OfferingTerms({ offering }: { offering: Offering }) {
  const { t } = useTranslation();
  const fee = isZero(offering.feeRate)
    ? t('newShares_noFee')
    : formatMessage(t('newShares_feeOfAmount'), [percentText(offering.feeRate)]);
  return (
    <div className="ns-terms" data-testid="new-share-terms">
      <Line
        label={t('newShares_offerPrice')}
        value={amountText(offering.price, offering)}
        strong
        testId="new-share-price"
      />
      <Line label={t('newShares_lotSize')} value={lotSizeText(offering)} />
      <Line
        label={t('newShares_lotsOffered')}
        value={`${offering.lotsOffered} (${quantityText(offering.quantityOffered, offering)})`}
      />
      <Line
        label={t('newShares_lotsPerUser')}
        value={`${offering.minLots} – ${offering.maxLots}`}
        testId="new-share-limits"
      />
      <Line label={t('newShares_fee')} value={fee} number={false} />
      <Line label={t('newShares_subscribeStart')} value={timeText(offering.subscribeStart)} />
      <Line label={t('newShares_subscribeEnd')} value={timeText(offering.subscribeEnd)} />
      <Line label={t('newShares_allocationTime')} value={timeText(offering.allocationTime)} />
      <Line label={t('newShares_listingTime')} value={timeText(offering.listingTime)} />
      <Line
        label={t('newShares_lockUp')}
        value={
          offering.lockUpDays === 0
            ? t('newShares_noLockUp')
            : formatMessage(t('newShares_lockUpDays'), [offering.lockUpDays])
        }
        number={false}
      />
      <Line
        label={t('newShares_identity')}
        value={identityText(offering.minAuthLevel)}
        number={false}
      />
      <Line label={t('newShares_currency')} value={offering.currency} />
    </div>
  );
}

/** The published allocation rule in words, with its version. */
export function AllocationRule({ rule }: { rule: string }) {
  const { t } = useTranslation();
  return (
    <section className="card stack ns-rule" data-testid="new-share-rule">
      <div className="ns-card-head">
        <h2 className="section-title ns-section-title">{t('newShares_ruleTitle')}</h2>
        <Num className="list-tag">{rule}</Num>
      </div>
      <ol className="ns-rule-steps">
        {[1, 2, 3, 4, 5].map((step) => (
          <li key={step}>{t(`newShares_ruleStep${step}`)}</li>
        ))}
      </ol>
    </section>
  );
}
