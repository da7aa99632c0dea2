/**
 * The user centre, centred layout (/pages/tabs/me/me): the avatar large and centred over the
 * name, the assets in a card with the money actions as a grid, and every area as a titled grid.
 */
import { PageHeader } from '../../components/page-header';
import {
  AccountSwitch,
  AssetsFigure,
  AuthStatus,
  EntryTiles,
  LogoutButton,
  QUICK,
  SignInPrompt,
  useMe,
} from './me-parts';
import { UserAvatar } from './user-avatar';
import './me-layouts.css';

export default function MeDefaultPage() {
  const me = useMe();
  const { t, user, demo } = me;
  return (
    <div className="page" data-testid="me-default-page">
      <PageHeader title={t('page_me')} />
      <div className="page-body stack">
        <section className="me-centered">
          {me.signedIn && user ? (
            <>
              <UserAvatar user={user} testId="me-avatar" />
              <strong className="ellipsis" dir="auto" data-testid="me-name">
                {user.nickName || user.userAccount}
              </strong>
              <span className="muted ellipsis" data-testid="me-account">
                {user.userAccount}
              </span>
              <span className="row muted" style={{ justifyContent: 'center', flexWrap: 'wrap' }}>
                <AuthStatus me={me} />
                {demo ? (
                  <span className="badge-demo" data-testid="demo-badge">
                    {t('account_demoBadge')}
                  </span>
                ) : (
                  <span>· {t('account_live')}</span>
                )}
              </span>
            </>
          ) : (
            <SignInPrompt me={me} />
          )}
        </section>
        {me.signedIn && me.visible('assets') && (
          <section className="card stack">
            <AssetsFigure me={me} />
          </section>
        )}
        {me.signedIn && <EntryTiles me={me} entries={me.entries(QUICK)} />}
        <AccountSwitch me={me} />
        {me.groups.map((group) => (
          <section key={group.title} className="stack" style={{ gap: 8 }}>
            <h2 className="section-title me-section-title">{t(group.title)}</h2>
            <EntryTiles me={me} entries={group.entries} />
          </section>
        ))}
        <LogoutButton me={me} />
      </div>
    </div>
  );
}
