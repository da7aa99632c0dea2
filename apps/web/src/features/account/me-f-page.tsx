/**
 * The user centre, banner layout (/pages/tabs/me/me-f): the user on a coloured band across the
 * top, the assets card overlapping its lower edge, then the areas as card lists.
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
import './me-layouts.css';

export default function MeFPage() {
  const me = useMe();
  return (
    <div className="page" data-testid="me-f-page">
      <PageHeader title={me.t('page_me')} />
      <section className="me-band">
        {me.signedIn && me.user ? <IdentityRow me={me} /> : <SignInPrompt me={me} />}
      </section>
      <div className="page-body stack me-band-body">
        {me.signedIn && me.visible('assets') && (
          <section className="card stack me-lifted">
            <AssetsFigure me={me} />
            <EntryTiles me={me} entries={me.entries(QUICK)} />
          </section>
        )}
        <AccountSwitch me={me} />
        {me.groups.map((group) => (
          <EntryList key={group.title} me={me} entries={group.entries} />
        ))}
        <LogoutButton me={me} />
      </div>
    </div>
  );
}
