/**
 * Home (tab 0, home-k): the site's header with language and account, the balance (m-zichan) or an
 * invitation to sign in, the platform notice, shortcuts to the built areas and the recommended
 * products with live prices (m-quolist), and the news (m-news) when the app hands it in. Sections
 * follow the page configuration. The other home layouts are composed of the same blocks
 * (blocks.tsx); this one comes with the app, so it imports only what its first paint needs.
 */
import { lazy, Suspense } from 'react';
import { Button } from 'antd-mobile';
import { GlobalOutline, SoundOutline, UserOutline } from 'antd-mobile-icons';
import { useTranslation } from '../../i18n/react';
import { ACCOUNT_TYPE, UNKNOWN_VALUE } from '@bourse/shared';
import { EntryGrid } from '../../components/entry-grid';
import { HeaderIconButton } from '../../components/header-icon-button';
import { APP_ENTRIES, screenEntries } from '../../components/screen-entries';
import { Banners } from './banners';
import type { HomeBlocks } from './blocks';
import { WhenVisible } from './when-visible';
import { usePageConfig } from '../../hooks/use-page-config';
import { useSiteInfo } from '../../hooks/use-site-info';
import { translate } from '../../i18n';
import { navigateTo } from '../../lib/navigation';
import { useTip } from '../../hooks/use-tip';
import { useUser } from '../../hooks/use-user';

// The total of assets (and what keeps it current) loads after the first screen has painted.
const HomeTotal = lazy(() =>
  import('./home-total').then((module) => ({ default: module.HomeTotal })),
);

// The bell's count (and the WebSocket that keeps it current) loads after the first paint.
const MessageBell = lazy(() =>
  import('../../components/message-bell').then((module) => ({ default: module.MessageBell })),
);

// The live list (and its WebSocket) loads after the first screen has painted.
const RecommendedProducts = lazy(() =>
  import('./recommended-products').then((module) => ({ default: module.RecommendedProducts })),
);

/** The popular list's place until its code and rows arrive (see QuoteListPlace). */
function QuoteListPlaceholder() {
  return <section className="card" style={{ minHeight: 400 }} aria-hidden="true" />;
}

const SHORTCUTS = screenEntries(
  ['quotes', 'favorite', 'quoteSearch', 'me', 'change', 'language', 'line'],
  APP_ENTRIES,
);

export default function HomePage({ blocks = {} }: { blocks?: HomeBlocks }) {
  const { t } = useTranslation();
  const visible = usePageConfig('pages/tabs/home/home-k');
  const { user, signedIn } = useUser();
  const site = useSiteInfo();
  const notice = useTip(user?.accountType === ACCOUNT_TYPE.demo ? 'demoAccount' : 'withdrawNotice');

  return (
    <div className="page" data-testid="home-page">
      {visible('header') && (
        <header className="home-header">
          <img src="favicon.svg" width="32" height="32" alt="" />
          <span className="site-name">{site?.siteName || 'Bourse'}</span>
          {user?.accountType === ACCOUNT_TYPE.demo && (
            <span className="badge-demo">{t('account_demoBadge')}</span>
          )}
          <span className="spacer" />
          <HeaderIconButton label={t('page_language')} onClick={() => navigateTo('language')}>
            <GlobalOutline />
          </HeaderIconButton>
          {/* Messages are a signed-in user's: a visitor's first screen loads none of their code. */}
          {signedIn && (
            <Suspense fallback={<span className="icon-button" aria-hidden="true" />}>
              <MessageBell />
            </Suspense>
          )}
          <HeaderIconButton label={t('page_me')} testId="home-me" onClick={() => navigateTo('me')}>
            <UserOutline />
          </HeaderIconButton>
        </header>
      )}
      <div className="page-body stack">
        {visible('assets') && (
          <section className="hero stack">
            {signedIn ? (
              <Suspense
                fallback={
                  <>
                    <span className="muted">{translate('account_totalAssets', ['USDT'])}</span>
                    <span className="balance">{UNKNOWN_VALUE}</span>
                  </>
                }
              >
                <HomeTotal book={user?.accountType} />
              </Suspense>
            ) : (
              <>
                <strong style={{ fontSize: 20 }}>{site?.slogan || t('site_slogan')}</strong>
                <div className="row">
                  <Button
                    color="primary"
                    onClick={() => navigateTo('login')}
                    data-testid="home-login"
                  >
                    {t('account_login')}
                  </Button>
                  <Button onClick={() => navigateTo('register')} data-testid="home-register">
                    {t('account_register')}
                  </Button>
                </div>
              </>
            )}
          </section>
        )}
        {visible('banner') && <Banners />}
        {visible('notice') && blocks.Notice && (
          <Suspense fallback={null}>
            <blocks.Notice />
          </Suspense>
        )}
        {/* Until the tips are read once, the notice's place is held: nothing below it moves. */}
        {visible('notice') && !notice && (
          <section className="card notice notice-pending" aria-hidden="true" />
        )}
        {visible('notice') && notice?.content && notice.isShow !== 0 && (
          <section className="card notice">
            <SoundOutline style={{ color: 'var(--accent)', flex: 'none', marginTop: 2 }} />
            <span>{notice.content}</span>
          </section>
        )}
        {visible('shortcut') && <EntryGrid entries={SHORTCUTS} />}
        {visible('recommend') && (
          <Suspense fallback={<QuoteListPlaceholder />}>
            <RecommendedProducts />
          </Suspense>
        )}
        {blocks.News && (
          <WhenVisible>
            <Suspense fallback={null}>
              <blocks.News limit={3} />
            </Suspense>
          </WhenVisible>
        )}
      </div>
    </div>
  );
}
