/**
 * The user centre (me-k): avatar, account, verification state, the live/demo switch with its
 * badge, the balance, entries to every area and logout. Signed out, it offers sign-in.
 */
import { useQuery } from '@tanstack/react-query';
import { Button, List } from 'antd-mobile';
import { Dialog } from '../../lib/antd-render';
import {
  BankcardOutline,
  BellOutline,
  ContentOutline,
  EditSOutline,
  FileOutline,
  GiftOutline,
  GlobalOutline,
  LinkOutline,
  LockOutline,
  MessageOutline,
  PayCircleOutline,
  QuestionCircleOutline,
  ReceivePaymentOutline,
  SendOutline,
  SetOutline,
  ShopbagOutline,
  TeamOutline,
  LoopOutline,
  UserContactOutline,
} from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { ACCOUNT_TYPE, AUTH_STATUS, formatAmount } from '@bourse/shared';
import { EntryGrid, type ScreenEntry } from '../../components/entry-grid';
import { PageHeader } from '../../components/page-header';
import { usePageConfig } from '../../hooks/use-page-config';
import { translate } from '../../i18n';
import { isBuilt, navigateTo, reLaunch } from '../../lib/navigation';
import { getOtherValue } from '../../lib/storage';
import { personCenterPanelData } from './api';
import { useSwitchAccount } from '../../hooks/use-switch-account';
import { signOut } from '../../api/session';
import { useUser } from '../../hooks/use-user';

const AUTH_LABEL: Record<number, string> = {
  [AUTH_STATUS.none]: 'account_authNone',
  [AUTH_STATUS.underReview]: 'account_authReview',
  [AUTH_STATUS.verified]: 'account_authVerified',
  [AUTH_STATUS.rejected]: 'account_authRejected',
};

interface Entry extends ScreenEntry {
  /** The page-config module that can hide it. */
  module?: string;
}

const QUICK: Entry[] = [
  { route: 'recharge', label: 'area_recharge', icon: <ReceivePaymentOutline />, module: 'assets' },
  { route: 'withdraw', label: 'area_withdraw', icon: <SendOutline />, module: 'assets' },
  { route: 'exchange', label: 'area_exchange', icon: <LoopOutline />, module: 'assets' },
  { route: 'accountRecord', label: 'area_records', icon: <FileOutline />, module: 'records' },
];

const AREAS: Entry[][] = [
  [
    { route: 'userInfo', label: 'page_userInfo', icon: <UserContactOutline /> },
    { route: 'change', label: 'page_security', icon: <LockOutline />, module: 'security' },
    { route: 'authentication', label: 'area_identity', icon: <EditSOutline />, module: 'identity' },
    { route: 'bankCards', label: 'area_bankCards', icon: <BankcardOutline />, module: 'bankCard' },
    { route: 'wallets', label: 'area_wallets', icon: <PayCircleOutline />, module: 'wallets' },
  ],
  [
    { route: 'contractPosition', label: 'area_positions', icon: <ContentOutline /> },
    { route: 'bibiOrder', label: 'area_orders', icon: <FileOutline /> },
    { route: 'lockMining', label: 'area_lockMining', icon: <ShopbagOutline /> },
    { route: 'pledgeList', label: 'area_pledge', icon: <ShopbagOutline /> },
    { route: 'loan', label: 'area_loan', icon: <PayCircleOutline /> },
    { route: 'newShares', label: 'area_newShares', icon: <GiftOutline /> },
    { route: 'followOrder', label: 'area_followOrder', icon: <TeamOutline /> },
  ],
  [
    { route: 'team', label: 'area_team', icon: <TeamOutline />, module: 'team' },
    { route: 'share', label: 'area_share', icon: <LinkOutline />, module: 'team' },
    { route: 'welfare', label: 'area_welfare', icon: <GiftOutline /> },
    { route: 'activity', label: 'area_activity', icon: <GiftOutline /> },
    { route: 'messages', label: 'area_messages', icon: <MessageOutline />, module: 'messages' },
    {
      route: 'notifications',
      label: 'area_notifications',
      icon: <BellOutline />,
      module: 'messages',
    },
    { route: 'service', label: 'area_service', icon: <MessageOutline />, module: 'service' },
    { route: 'qa', label: 'area_qa', icon: <QuestionCircleOutline /> },
  ],
  [
    { route: 'language', label: 'page_language', icon: <GlobalOutline />, module: 'language' },
    { route: 'line', label: 'page_line', icon: <SetOutline />, module: 'line' },
    { route: 'privacy', label: 'page_privacy', icon: <LockOutline /> },
  ],
];

export default function MePage() {
  const { t } = useTranslation();
  const { user, signedIn } = useUser();
  const visible = usePageConfig('pages/tabs/me/me-k');
  const panel = useQuery({
    queryKey: ['personCenterPanelData', user?.accountType],
    queryFn: personCenterPanelData,
    enabled: signedIn,
  });
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
  const entries = (list: Entry[]) =>
    list.filter((entry) => isBuilt(entry.route) && (!entry.module || visible(entry.module)));

  return (
    <div className="page" data-testid="me-page">
      <PageHeader title={t('page_me')} />
      <div className="page-body stack">
        <section className="hero">
          {signedIn && user ? (
            <div className="row">
              <div className="avatar" aria-hidden="true">
                {user.avatar ? (
                  <img src={user.avatar} alt="" />
                ) : (
                  (user.nickName || user.userAccount).slice(0, 1).toUpperCase()
                )}
              </div>
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
                  {t(AUTH_LABEL[user.authStatus] ?? 'account_authNone')} ·{' '}
                  {t(demo ? 'account_demo' : 'account_live')}
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
              <span className="muted">
                {translate('account_totalAssets', [panel.data?.currencyName ?? 'USDT'])}
              </span>
              <span className="balance" data-testid="me-balance">
                {formatAmount(panel.data?.userBalanceConvert, { decimals })}
              </span>
            </div>
          )}
        </section>

        {signedIn && visible('demoSwitch') && (
          <section className="card row">
            <div className="stack" style={{ gap: 2 }}>
              <strong>{t(demo ? 'account_demo' : 'account_live')}</strong>
              <span className="muted">{t(demo ? 'tip_demoAccount' : 'account_liveHint')}</span>
            </div>
            <span className="spacer" />
            <Button
              size="small"
              color="primary"
              fill="outline"
              onClick={() => void switchAccount()}
              data-testid="switch-account"
            >
              {t(demo ? 'account_switchToLive' : 'account_switchToDemo')}
            </Button>
          </section>
        )}

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
