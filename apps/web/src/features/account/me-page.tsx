/**
 * The user centre (me-k): avatar, account, verification state, the live/demo switch with its
 * badge, the balance, entries to every area and logout. Signed out, it offers sign-in. Its blocks
 * are those of every user-centre layout (me-parts.tsx).
 */
import { PageHeader } from '../../components/page-header';
import {
  AccountSwitch,
  AssetsFigure,
  EntryList,
  EntryTiles,
  IdentityRow,
  LogoutButton,
  QUICK,
  SignInPrompt,
  useMe,
} from './me-parts';

export default function MePage() {
  const me = useMe();
  return (
    <div className="page" data-testid="me-page">
      <PageHeader title={me.t('page_me')} />
      <div className="page-body stack">
        <section className="hero">
          {me.signedIn && me.user ? <IdentityRow me={me} /> : <SignInPrompt me={me} />}
          {me.signedIn && (
            <div style={{ marginTop: 16 }}>
              <AssetsFigure me={me} />
            </div>
          )}
        </section>
        <AccountSwitch me={me} />
        {me.signedIn && <EntryTiles me={me} entries={me.entries(QUICK)} />}
        {me.groups.map((group) => (
          <EntryList key={group.title} me={me} entries={group.entries} />
        ))}
        <LogoutButton me={me} />
      </div>
    </div>
  );
}
