/**
 * The blocks every user-centre layout is composed of (me-k and the variants of issue 21): who the
 * user is, the total of assets, the live/demo switch, the entries to every area (the messages
 * entry with the unread count), sign-out; and what they share (`useMe`). The layouts differ in
 * header, in entries as grids, lists or tiles, and in where the assets sit.
 */
import { Button, List } from 'antd-mobile';
import {
  BankcardOutline,
  BellOutline,
  ContentOutline,
  EditSOutline,
  FileOutline,
  GiftOutline,
  LinkOutline,
  LoopOutline,
  MessageOutline,
  PayCircleOutline,
  QuestionCircleOutline,
  ReceivePaymentOutline,
  SendOutline,
  ShopbagOutline,
  TeamOutline,
  UserContactOutline,
} from 'antd-mobile-icons';
import { useTranslation } from '../../i18n/react';
import { ACCOUNT_TYPE, AUTH_STATUS } from '@bourse/shared';
import type { ScreenEntry } from '../../components/entry-grid';
import { APP_ENTRIES, entryTable, screenEntries } from '../../components/screen-entries';
import { UnreadBadge } from '../../components/message-bell';
import type { RouteName } from '../../config/paths';
import { usePageConfig } from '../../hooks/use-page-config';
import { useUnreadCount } from '../../hooks/use-unread-count';
import { Dialog } from '../../lib/antd-render';
import { isBuilt, navigateTo, reLaunch } from '../../lib/navigation';
import { getOtherValue } from '../../lib/storage';
import { useValuation } from '../../lib/balances';
import { useSwitchAccount } from '../../hooks/use-switch-account';
import { signOut } from '../../api/session';
import { useUser } from '../../hooks/use-user';
import { TotalAssetsFigure } from '../../components/total-assets';
import { DemoResetButton } from './demo-reset-button';
import { UserAvatar } from './user-avatar';

export const AUTH_LABEL: Record<number, string> = {
  [AUTH_STATUS.none]: 'account_authNone',
  [AUTH_STATUS.underReview]: 'account_authReview',
  [AUTH_STATUS.verified]: 'account_authVerified',
  [AUTH_STATUS.rejected]: 'account_authRejected',
};

/** The user centre's areas, with the app's general screens. */
const ENTRIES = entryTable({
  ...APP_ENTRIES,
  recharge: ['area_recharge', ReceivePaymentOutline],
  withdraw: ['area_withdraw', SendOutline],
  exchange: ['area_exchange', LoopOutline],
  accountRecord: ['area_records', FileOutline],
  userInfo: ['page_userInfo', UserContactOutline],
  authentication: ['area_identity', EditSOutline],
  bankCards: ['area_bankCards', BankcardOutline],
  wallets: ['area_wallets', PayCircleOutline],
  contractPosition: ['area_positions', ContentOutline],
  bibiOrder: ['area_orders', FileOutline],
  lockMining: ['area_lockMining', ShopbagOutline],
  pledgeList: ['area_pledge', ShopbagOutline],
  loan: ['area_loan', PayCircleOutline],
  newShares: ['area_newShares', GiftOutline],
  followOrder: ['area_followOrder', TeamOutline],
  team: ['area_team', TeamOutline],
  share: ['area_share', LinkOutline],
  welfare: ['area_welfare', GiftOutline],
  activity: ['area_activity', GiftOutline],
  messages: ['area_messages', MessageOutline],
  notifications: ['area_notifications', BellOutline],
  service: ['area_service', MessageOutline],
  qa: ['area_qa', QuestionCircleOutline],
});

/** The page-config module that can hide a screen's entry here. */
const MODULE: Partial<Record<RouteName, string>> = {
  recharge: 'assets',
  withdraw: 'assets',
  exchange: 'assets',
  accountRecord: 'records',
  change: 'security',
  authentication: 'identity',
  bankCards: 'bankCard',
  wallets: 'wallets',
  team: 'team',
  share: 'team',
  messages: 'messages',
  notifications: 'messages',
  service: 'service',
  language: 'language',
  line: 'line',
};

export const QUICK = screenEntries(['recharge', 'withdraw', 'exchange', 'accountRecord'], ENTRIES);

/** The areas in groups, each with its heading: account, trading, services, the device. */
export const AREA_GROUPS: { title: string; entries: ScreenEntry[] }[] = (
  [
    ['layout_groupAccount', ['userInfo', 'change', 'authentication', 'bankCards', 'wallets']],
    [
      'layout_groupTrading',
      [
        'contractPosition',
        'bibiOrder',
        'lockMining',
        'pledgeList',
        'loan',
        'newShares',
        'followOrder',
      ],
    ],
    [
      'layout_services',
      ['team', 'share', 'welfare', 'activity', 'messages', 'notifications', 'service', 'qa'],
    ],
    ['layout_groupSettings', ['language', 'line', 'privacy']],
  ] satisfies [string, (keyof typeof ENTRIES)[]][]
).map(([title, routes]) => ({ title, entries: screenEntries(routes, ENTRIES) }));

/** What every user-centre layout reads: the user, the page configuration, the total, actions. */
export function useMe(configPath = 'pages/tabs/me/me-k') {
  const { t } = useTranslation();
  const { user, signedIn } = useUser();
  const visible = usePageConfig(configPath);
  // The one total of assets the server computes, the same answer home and the wallet show.
  const valuation = useValuation(user?.accountType, signedIn).data;
  const demo = user?.accountType === ACCOUNT_TYPE.demo;
  const { app_decimal_no: decimals } = getOtherValue();
  const switchTo = useSwitchAccount();
  const { count: unread } = useUnreadCount();

  async function switchAccount() {
    await switchTo(demo ? ACCOUNT_TYPE.live : ACCOUNT_TYPE.demo);
  }

  async function logout() {
    const confirmed = await Dialog.confirm({
      content: t('account_logoutConfirm'),
      confirmText: t('account_logout'),
      cancelText: t('common_cancel'),
    });
    if (!confirmed) return;
    await signOut().catch(() => undefined);
    reLaunch('login');
  }

  // Entries to screens still to come are hidden, not dead; the page configuration hides others.
  const entries = (list: readonly ScreenEntry[]) =>
    list.filter((entry) => {
      const module = MODULE[entry.route];
      return isBuilt(entry.route) && (!module || visible(module));
    });

  /** The groups a layout shows: signed out, only the device settings (the last group) apply. */
  const groups = AREA_GROUPS.map((group, index) => ({
    title: group.title,
    entries: signedIn || index === AREA_GROUPS.length - 1 ? entries(group.entries) : [],
  })).filter((group) => group.entries.length > 0);

  return {
    t,
    user,
    signedIn,
    visible,
    valuation,
    demo,
    decimals,
    unread,
    switchAccount,
    logout,
    entries,
    groups,
  };
}

export type Me = ReturnType<typeof useMe>;

/** The unread count beside the messages entry. */
export function EntryBadge({ me, route }: { me: Me; route: RouteName }) {
  if (route !== 'messages') return null;
  return <UnreadBadge count={me.unread} testId="me-unread" />;
}

/** The verification state, leading to where it is changed when identity is shown. */
export function AuthStatus({ me }: { me: Me }) {
  const { t, user, visible } = me;
  if (!user) return null;
  const label = t(AUTH_LABEL[user.authStatus] ?? 'account_authNone');
  if (!visible('identity')) return <>{label}</>;
  return (
    <button
      type="button"
      className="link"
      style={{ fontSize: 'inherit' }}
      onClick={() => navigateTo('authentication')}
      data-testid="me-auth-status"
    >
      {label}
    </button>
  );
}

/** Avatar, name, account, verification state and the book, side by side. */
export function IdentityRow({ me }: { me: Me }) {
  const { t, user, demo } = me;
  if (!user) return null;
  return (
    <div className="row">
      <UserAvatar user={user} testId="me-avatar" />
      <div className="stack" style={{ gap: 4, minWidth: 0, flex: 1 }}>
        <div className="row" style={{ minWidth: 0 }}>
          <strong className="ellipsis" dir="auto" data-testid="me-name">
            {user.nickName || user.userAccount}
          </strong>
          {demo && (
            <span className="badge-demo" data-testid="demo-badge">
              {t('account_demoBadge')}
            </span>
          )}
        </div>
        <span className="muted ellipsis" data-testid="me-account">
          {user.userAccount}
        </span>
        <span className="muted">
          <AuthStatus me={me} /> · {t(demo ? 'account_demo' : 'account_live')}
        </span>
      </div>
    </div>
  );
}

/** Signed out: the welcome and the ways in. */
export function SignInPrompt({ me }: { me: Me }) {
  const { t } = me;
  return (
    <div className="stack">
      <strong>{t('account_welcome')}</strong>
      <span className="muted">{t('account_signInPrompt')}</span>
      <div className="row">
        <Button color="primary" onClick={() => navigateTo('login')} data-testid="me-login">
          {t('account_login')}
        </Button>
        <Button onClick={() => navigateTo('register')}>{t('account_register')}</Button>
      </div>
    </div>
  );
}

/** The total of assets (signed in, when the page configuration shows assets). */
export function AssetsFigure({ me }: { me: Me }) {
  if (!me.signedIn || !me.visible('assets')) return null;
  return (
    <div className="stack" style={{ gap: 4 }}>
      <TotalAssetsFigure valuation={me.valuation} decimals={me.decimals} testId="me-balance" />
    </div>
  );
}

/** The live/demo switch and, on the demo account, its reset. */
export function AccountSwitch({ me }: { me: Me }) {
  const { t, signedIn, demo, visible } = me;
  if (!signedIn || !visible('demoSwitch')) return null;
  return (
    <>
      <section className="card row">
        <div className="stack account-switch-text" style={{ gap: 2 }}>
          <strong>{t(demo ? 'account_demo' : 'account_live')}</strong>
          <span className="muted">{t(demo ? 'tip_demoAccount' : 'account_liveHint')}</span>
        </div>
        <span className="spacer" />
        <Button
          size="small"
          color="primary"
          fill="outline"
          className="account-switch"
          onClick={() => void me.switchAccount()}
          data-testid="switch-account"
        >
          {t(demo ? 'account_switchToLive' : 'account_switchToDemo')}
        </Button>
      </section>
      {demo && <DemoResetButton />}
    </>
  );
}

/** Entries as a grid of icons over labels (the messages entry with its unread count). */
export function EntryTiles({
  me,
  entries,
  columns = 4,
}: {
  me: Me;
  entries: readonly ScreenEntry[];
  columns?: 2 | 4;
}) {
  const { t } = me;
  if (entries.length === 0) return null;
  return (
    <section className={columns === 2 ? 'me-tiles' : 'card grid-entries'}>
      {entries.map((entry) => (
        <button
          key={entry.route}
          type="button"
          className={columns === 2 ? 'me-tile' : 'grid-entry'}
          onClick={() => navigateTo(entry.route)}
          data-testid={`me-entry-${entry.route}`}
        >
          <span className={columns === 2 ? 'me-tile-icon' : 'grid-entry-icon'}>{entry.icon}</span>
          <span className="me-entry-label">
            {t(entry.label)}
            <EntryBadge me={me} route={entry.route} />
          </span>
        </button>
      ))}
    </section>
  );
}

/** Entries as a card list, chevrons on the end side. */
export function EntryList({ me, entries }: { me: Me; entries: readonly ScreenEntry[] }) {
  const { t } = me;
  if (entries.length === 0) return null;
  return (
    <List mode="card" style={{ margin: 0 }}>
      {entries.map((entry) => (
        <List.Item
          key={entry.route}
          prefix={entry.icon}
          extra={<EntryBadge me={me} route={entry.route} />}
          onClick={() => navigateTo(entry.route)}
          data-testid={`me-entry-${entry.route}`}
        >
          {t(entry.label)}
        </List.Item>
      ))}
    </List>
  );
}

export function LogoutButton({ me, look = 'button' }: { me: Me; look?: 'button' | 'text' }) {
  if (!me.signedIn) return null;
  return (
    <Button
      block
      color="danger"
      fill={look === 'text' ? 'none' : 'outline'}
      onClick={() => void me.logout()}
      data-testid="logout"
    >
      {me.t('account_logout')}
    </Button>
  );
}
