/**
 * The user centre, assets layout (/pages/tabs/me/me-e): the total of assets is the header, the
 * user's name small above it with the money actions, and the areas follow as titled lists.
 */
import { PageHeader } from '../../components/page-header';
import {
  AccountSwitch,
  AssetsFigure,
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

export default function MeEPage() {
  const me = useMe();
  const { t, user, demo } = me;
  return (
    <div className="page" data-testid="me-e-page">
      <PageHeader title={t('page_me')} />
      <div className="page-body stack">
        {me.signedIn && user ? (
          <section className="me-assets-header stack">
            <div className="row" style={{ minWidth: 0 }}>
              <UserAvatar user={user} testId="me-avatar" />
              <span className="stack" style={{ gap: 2, minWidth: 0 }}>
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
                <span className="muted" style={{ fontSize: 12 }}>
                  <AuthStatus me={me} />
                </span>
              </span>
            </div>
            <AssetsFigure me={me} />
            <EntryTiles me={me} entries={me.entries(QUICK)} />
          </section>
        ) : (
          <section className="me-assets-header">
            <SignInPrompt me={me} />
          </section>
        )}
        <AccountSwitch me={me} />
        {me.groups.map((group) => (
          <section key={group.title} className="stack" style={{ gap: 8 }}>
            <h2 className="section-title me-section-title">{t(group.title)}</h2>
            <EntryList me={me} entries={group.entries} />
          </section>
        ))}
        <LogoutButton me={me} />
      </div>
    </div>
  );
}
