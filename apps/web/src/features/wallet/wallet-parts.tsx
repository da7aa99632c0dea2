/**
 * Pieces of the wallet screens: the way to their records, a choice among a few (channels, cards,
 * addresses) and the screens that move real money, which demo accounts cannot use.
 */
import { Button } from 'antd-mobile';
import { FileOutline } from 'antd-mobile-icons';
import { useTranslation } from '../../i18n/react';
import { ACCOUNT_TYPE } from '@bourse/shared';
import { DemoBadge, useDemoAccount } from '../../components/demo-account';
import { SignedInScreen } from '../../components/signed-in-screen';
import type { RouteName } from '../../config/paths';
import { useSubmit } from '../../hooks/use-submit';
import { useSwitchAccount } from '../../hooks/use-switch-account';
import { navigateTo } from '../../lib/navigation';

/**
 * Each list of records a wallet screen leads to: the label of the way there and its test id. The
 * withdrawal form names its records in words, the others show an icon.
 */
const RECORDS = {
  rechargeRecord: { label: 'recharge_records', testId: 'recharge-records-link', words: false },
  changeRecord: { label: 'exchange_records', testId: 'exchange-records-link', words: false },
  withdrawRecord: { label: 'withdraw_recordsLink', testId: 'withdraw-records-link', words: true },
} satisfies Partial<Record<RouteName, { label: string; testId: string; words: boolean }>>;

/** The header's way to a screen's records. */
export function RecordsLink({ to }: { to: keyof typeof RECORDS }) {
  const { t } = useTranslation();
  const { label, testId, words } = RECORDS[to];
  return words ? (
    <button
      type="button"
      className="link"
      data-testid={testId}
      onClick={() => navigateTo(to)}
      style={{ fontSize: 14 }}
    >
      {t(label)}
    </button>
  ) : (
    <button
      type="button"
      className="field-addon"
      onClick={() => navigateTo(to)}
      data-testid={testId}
      aria-label={t(label)}
    >
      <FileOutline fontSize={20} />
    </button>
  );
}

/** One of a few choices (a channel, a card, an address): a bordered button, marked when chosen. */
export function ChoiceCard({
  selected,
  onSelect,
  icon,
  title,
  detail,
  className,
  testId,
}: {
  selected: boolean;
  onSelect: () => void;
  icon?: React.ReactNode;
  title: React.ReactNode;
  detail?: React.ReactNode;
  className?: string;
  testId?: string;
}) {
  return (
    <button
      type="button"
      className={className ? `choice-card ${className}` : 'choice-card'}
      aria-pressed={selected}
      data-testid={testId}
      onClick={onSelect}
    >
      {icon && <span className="choice-card-icon">{icon}</span>}
      <span className="choice-card-text">
        <strong className="ellipsis">{title}</strong>
        {detail && <span className="muted ellipsis">{detail}</span>}
      </span>
      <span className="choice-card-mark" aria-hidden="true" />
    </button>
  );
}

/** The screens that pay money in or out: what they do (`flow`), their title and test id. */
const LIVE_SCREENS = {
  recharge: { flow: 'recharge', title: 'area_recharge', testId: 'recharge-page' },
  linePay: { flow: 'recharge', title: 'recharge_linePayTitle', testId: 'line-pay-page' },
  withdraw: { flow: 'withdraw', title: 'withdraw_title', testId: 'withdraw-page' },
} as const;

/**
 * A screen that pays money in or out (a deposit, its online payment, a withdrawal). Demo funds
 * are virtual: a demo account is told so instead of seeing `children`, and offered the live
 * account; nor does it get the header's way to the records (`right`).
 */
export function LiveFundsScreen({
  screen,
  right,
  children,
}: {
  screen: keyof typeof LIVE_SCREENS;
  right?: React.ReactNode;
  children: React.ReactNode;
}) {
  const { t } = useTranslation();
  const demo = useDemoAccount();
  const { flow, title, testId } = LIVE_SCREENS[screen];
  return (
    <SignedInScreen testId={testId} title={t(title)} right={!demo && right}>
      <div className="page-body stack">{demo ? <DemoFundsNotice flow={flow} /> : children}</div>
    </SignedInScreen>
  );
}

/**
 * Demo funds are virtual: they cannot be paid in or out. Says so (`<flow>_demoTitle`,
 * `<flow>_demoText`) and switches to the live account, one tap away.
 */
function DemoFundsNotice({ flow }: { flow: 'recharge' | 'withdraw' }) {
  const { t } = useTranslation();
  const switchTo = useSwitchAccount();
  const { submit, pending } = useSubmit(async () => {
    await switchTo(ACCOUNT_TYPE.live);
  });
  return (
    <section className="card stack" data-testid={`${flow}-demo`}>
      <div className="row">
        <DemoBadge />
        <strong>{t(`${flow}_demoTitle`)}</strong>
      </div>
      <p className="muted" style={{ margin: 0, lineHeight: 1.5 }}>
        {t(`${flow}_demoText`)}
      </p>
      <Button
        block
        color="primary"
        loading={pending}
        disabled={pending}
        onClick={() => void submit()}
        data-testid={`${flow}-switch-live`}
      >
        {t(flow === 'recharge' ? 'recharge_switchToLive' : 'account_switchToLive')}
      </Button>
    </section>
  );
}
