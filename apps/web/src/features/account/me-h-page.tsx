/**
 * The user centre, minimal layout (/pages/tabs/me/me-h): no cards and no pictures; the user,
 * the total and every area in one plain list, sign-out as text at its end.
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
  EntryBadge,
  LogoutButton,
  QUICK,
  SignInPrompt,
  useMe,
} from './me-parts';
import './me-layouts.css';

export default function MeHPage() {
  const me = useMe();
  const { t, user, demo, valuation } = me;
  const entries = [
    ...(me.signedIn ? me.entries(QUICK) : []),
    ...me.groups.flatMap((g) => g.entries),
  ];
  return (
    <div className="page" data-testid="me-h-page">
      <PageHeader title={t('page_me')} />
      <div className="page-body stack me-minimal">
        {me.signedIn && user ? (
          <div className="stack" style={{ gap: 4 }}>
            <span className="row" style={{ minWidth: 0 }}>
              <strong className="ellipsis me-minimal-name" dir="auto" data-testid="me-name">
                {user.nickName || user.userAccount}
              </strong>
              {demo && (
                <span className="badge-demo" data-testid="demo-badge">
                  {t('account_demoBadge')}
                </span>
              )}
            </span>
            <span className="muted">
              <AuthStatus me={me} /> · {t(demo ? 'account_demo' : 'account_live')}
            </span>
          </div>
        ) : (
          <SignInPrompt me={me} />
        )}
        <List style={{ margin: 0 }}>
          {me.signedIn && me.visible('assets') && (
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
            >
              {translate('account_totalAssets', [valuation?.currencyName ?? 'USDT'])}
            </List.Item>
          )}
          {entries.map((entry) => (
            <List.Item
              key={entry.route}
              extra={<EntryBadge me={me} route={entry.route} />}
              onClick={() => navigateTo(entry.route)}
              data-testid={`me-entry-${entry.route}`}
            >
              {t(entry.label)}
            </List.Item>
          ))}
        </List>
        <AccountSwitch me={me} />
        <LogoutButton me={me} look="text" />
      </div>
    </div>
  );
}
