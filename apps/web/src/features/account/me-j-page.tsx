/**
 * The user centre, compact layout (/pages/tabs/me/me-j): one row for the user (opening their
 * personal information), the money actions, and the total as the first line of the account list.
 */
import { List } from 'antd-mobile';
import { formatAmount } from '@bourse/shared';
import { PageHeader } from '../../components/page-header';
import { translate } from '../../i18n';
import { ValueSkeleton } from '../../components/status-views';
import { navigateTo } from '../../lib/navigation';
import {
  AccountSwitch,
  AuthStatus,
  EntryList,
  EntryTiles,
  LogoutButton,
  QUICK,
  SignInPrompt,
  useMe,
} from './me-parts';
import { UserAvatar } from './user-avatar';
import './me-layouts.css';

export default function MeJPage() {
  const me = useMe();
  const { t, user, demo, valuation } = me;
  return (
    <div className="page" data-testid="me-j-page">
      <PageHeader title={t('page_me')} />
      <div className="page-body stack">
        {me.signedIn && user ? (
          <List mode="card" style={{ margin: 0 }}>
            <List.Item
              prefix={<UserAvatar user={user} testId="me-avatar" />}
              description={
                <span className="muted">
                  <AuthStatus me={me} /> · {t(demo ? 'account_demo' : 'account_live')}
                </span>
              }
              onClick={() => navigateTo('userInfo')}
            >
              <span className="row" style={{ minWidth: 0 }}>
                <strong className="ellipsis" dir="auto" data-testid="me-name">
                  {user.nickName || user.userAccount}
                </strong>
                {demo && (
                  <span className="badge-demo" data-testid="demo-badge">
                    {t('account_demoBadge')}
                  </span>
                )}
              </span>
            </List.Item>
            {me.visible('assets') && (
              <List.Item
                extra={
                  valuation ? (
                    <strong dir="ltr" className="me-inline-total" data-testid="me-balance">
                      {formatAmount(valuation.userBalanceConvert, { decimals: me.decimals })}
                    </strong>
                  ) : (
                    <ValueSkeleton testId="me-balance-loading" />
                  )
                }
                onClick={() => navigateTo('accountRecord')}
              >
                {translate('account_totalAssets', [valuation?.currencyName ?? 'USDT'])}
              </List.Item>
            )}
          </List>
        ) : (
          <section className="card">
            <SignInPrompt me={me} />
          </section>
        )}
        {me.signedIn && <EntryTiles me={me} entries={me.entries(QUICK)} />}
        <AccountSwitch me={me} />
        {me.groups.map((group) => (
          <EntryList key={group.title} me={me} entries={group.entries} />
        ))}
        <LogoutButton me={me} look="text" />
      </div>
    </div>
  );
}
