/**
 * The user centre, tiles layout (/pages/tabs/me/me-g): the user and the live/demo switch in one
 * card, the assets under it, and every area as large two-column tiles.
 */
import { PageHeader } from '../../components/page-header';
import {
  AccountSwitch,
  AssetsFigure,
  EntryTiles,
  IdentityRow,
  LogoutButton,
  QUICK,
  SignInPrompt,
  useMe,
} from './me-parts';
import './me-layouts.css';

export default function MeGPage() {
  const me = useMe();
  const all = me.groups.flatMap((group) => group.entries);
  return (
    <div className="page" data-testid="me-g-page">
      <PageHeader title={me.t('page_me')} />
      <div className="page-body stack">
        <section className="card">
          {me.signedIn && me.user ? <IdentityRow me={me} /> : <SignInPrompt me={me} />}
        </section>
        {me.signedIn && me.visible('assets') && (
          <section className="hero stack" style={{ gap: 4 }}>
            <AssetsFigure me={me} />
          </section>
        )}
        <AccountSwitch me={me} />
        {me.signedIn && <EntryTiles me={me} entries={me.entries(QUICK)} columns={2} />}
        <EntryTiles me={me} entries={all} columns={2} />
        <LogoutButton me={me} />
      </div>
    </div>
  );
}
