/**
 * The user centre (me-k): avatar, account, verification state, the live/demo switch with its
 * badge, the balance, entries to every area and logout. Signed out, it offers sign-in.
 */
import { Button, List } from 'antd-mobile';
import { Dialog } from '../../lib/antd-render';
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
import { EntryGrid, type ScreenEntry } from '../../components/entry-grid';
import { APP_ENTRIES, entryTable, screenEntries } from '../../components/screen-entries';
import type { RouteName } from '../../config/paths';
import { PageHeader } from '../../components/page-header';
import { usePageConfig } from '../../hooks/use-page-config';
import { isBuilt, navigateTo, reLaunch } from '../../lib/navigation';
import { getOtherValue } from '../../lib/storage';
import { useValuation } from '../../lib/balances';
import { useSwitchAccount } from '../../hooks/use-switch-account';
import { signOut } from '../../api/session';
import { useUser } from '../../hooks/use-user';
import { TotalAssetsFigure } from '../../components/total-assets';
import { DemoResetButton } from './demo-reset-button';
import { UserAvatar } from './user-avatar';

const AUTH_LABEL: Record<number, string> = {
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

const QUICK = screenEntries(['recharge', 'withdraw', 'exchange', 'accountRecord'], ENTRIES);

const AREAS = (
  [
    ['userInfo', 'change', 'authentication', 'bankCards', 'wallets'],
    [
      'contractPosition',
      'bibiOrder',
      'lockMining',
      'pledgeList',
      'loan',
      'newShares',
      'followOrder',
    ],
    ['team', 'share', 'welfare', 'activity', 'messages', 'notifications', 'service', 'qa'],
    ['language', 'line', 'privacy'],
  ] satisfies (keyof typeof ENTRIES)[][]
).map((routes) => screenEntries(routes, ENTRIES));

export default function MePage() {
  const { t } = useTranslation();
  const { user, signedIn } = useUser();
  const visible = usePageConfig('pages/tabs/me/me-k');
  // The one total of assets the server computes, the same answer home and the wallet show.
  const valuation = useValuation(user?.accountType, signedIn).data;
  const demo = user?.accountType === ACCOUNT_TYPE.demo;
  const { app_decimal_no: decimals } = getOtherValue();
  const switchTo = useSwitchAccount();

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
  const entries = (list: ScreenEntry[]) =>
    list.filter((entry) => {
      const module = MODULE[entry.route];
      return isBuilt(entry.route) && (!module || visible(module));
    });

  return (
    <div className="page" data-testid="me-page">
      <PageHeader title={t('page_me')} />
      <div className="page-body stack">
        <section className="hero">
          {signedIn && user ? (
            <div className="row">
              <UserAvatar user={user} testId="me-avatar" />
              <div className="stack" style={{ gap: 4, minWidth: 0, flex: 1 }}>
                <div className="row" style={{ minWidth: 0 }}>
                  <strong className="ellipsis" data-testid="me-name">
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
                  {visible('identity') ? (
                    // The verification state leads to where it is changed.
                    <button
                      type="button"
                      className="link"
                      style={{ fontSize: 'inherit' }}
                      onClick={() => navigateTo('authentication')}
                      data-testid="me-auth-status"
                    >
                      {t(AUTH_LABEL[user.authStatus] ?? 'account_authNone')}
                    </button>
                  ) : (
                    t(AUTH_LABEL[user.authStatus] ?? 'account_authNone')
                  )}{' '}
                  · {t(demo ? 'account_demo' : 'account_live')}
                </span>
              </div>
            </div>
          ) : (
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
          )}
          {signedIn && visible('assets') && (
            <div className="stack" style={{ marginTop: 16, gap: 4 }}>
              <TotalAssetsFigure valuation={valuation} decimals={decimals} testId="me-balance" />
            </div>
          )}
        </section>

        {signedIn && visible('demoSwitch') && (
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
              onClick={() => void switchAccount()}
              data-testid="switch-account"
            >
              {t(demo ? 'account_switchToLive' : 'account_switchToDemo')}
            </Button>
          </section>
        )}

        {signedIn && demo && visible('demoSwitch') && <DemoResetButton />}

        {signedIn && <EntryGrid entries={entries(QUICK)} />}

        {AREAS.map((group, index) => {
          // Signed out, only the device settings (the last group) apply.
          const shown = signedIn || index === AREAS.length - 1 ? entries(group) : [];
          if (shown.length === 0) return null;
          return (
            <List key={index} mode="card" style={{ margin: 0 }}>
              {shown.map((entry) => (
                <List.Item
                  key={entry.route}
                  prefix={entry.icon}
                  onClick={() => navigateTo(entry.route)}
                >
                  {t(entry.label)}
                </List.Item>
              ))}
            </List>
          );
        })}

        {signedIn && (
          <Button
            block
            color="danger"
            fill="outline"
            onClick={() => void logout()}
            data-testid="logout"
          >
            {t('account_logout')}
          </Button>
        )}
      </div>
    </div>
  );
}
