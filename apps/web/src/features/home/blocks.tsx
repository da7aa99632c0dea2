/**
 * The blocks the home layouts are composed of (issue 21): the site header, assets (m-zichan) or
 * the invitation to sign in, the notice, shortcuts, the services grid and the news. The quote
 * list (m-quolist) and the banners are their own files. Blocks of other features (the news, the
 * operator's scrolling notice) are handed in by the app (router.tsx) as `HomeBlocks`, since a
 * feature never imports another.
 */
import { lazy, Suspense } from 'react';
import { Button } from 'antd-mobile';
import {
  BellOutline,
  FileOutline,
  GiftOutline,
  GlobalOutline,
  LinkOutline,
  LoopOutline,
  MessageOutline,
  QuestionCircleOutline,
  ReceivePaymentOutline,
  SendOutline,
  ShopbagOutline,
  SoundOutline,
  TeamOutline,
  UserOutline,
} from 'antd-mobile-icons';
import { useTranslation } from '../../i18n/react';
import { ACCOUNT_TYPE, UNKNOWN_VALUE } from '@bourse/shared';
import { EntryGrid } from '../../components/entry-grid';
import { HeaderIconButton } from '../../components/header-icon-button';
import { MessageBell } from '../../components/message-bell';
import { APP_ENTRIES, entryTable, screenEntries } from '../../components/screen-entries';
import { useSiteInfo } from '../../hooks/use-site-info';
import { useTip } from '../../hooks/use-tip';
import { useUser } from '../../hooks/use-user';
import { translate } from '../../i18n';
import { isBuilt, navigateTo } from '../../lib/navigation';

/** Blocks of other features, handed in by the app. */
export interface HomeBlocks {
  /** m-news: the latest news, at most `limit`. */
  News?: React.ComponentType<{ limit?: number }>;
  /** The operator's scrolling notice. */
  Notice?: React.ComponentType;
}

/** The page-config path every home layout follows: one switch hides a block on all of them. */
export const HOME_CONFIG_PATH = 'pages/tabs/home/home-k';

const HomeTotal = lazy(() =>
  import('./home-total').then((module) => ({ default: module.HomeTotal })),
);

const ENTRIES = entryTable({
  ...APP_ENTRIES,
  recharge: ['area_recharge', ReceivePaymentOutline],
  withdraw: ['area_withdraw', SendOutline],
  exchange: ['area_exchange', LoopOutline],
  accountRecord: ['area_records', FileOutline],
  service: ['area_service', MessageOutline],
  qa: ['area_qa', QuestionCircleOutline],
  activity: ['area_activity', GiftOutline],
  messages: ['area_messages', MessageOutline],
  notifications: ['area_notifications', BellOutline],
  team: ['area_team', TeamOutline],
  share: ['area_share', LinkOutline],
  welfare: ['area_welfare', GiftOutline],
  lockMining: ['area_lockMining', ShopbagOutline],
  pledgeList: ['area_pledge', ShopbagOutline],
  newShares: ['area_newShares', GiftOutline],
  followOrder: ['area_followOrder', TeamOutline],
});

export const SHORTCUTS = screenEntries(
  ['quotes', 'favorite', 'quoteSearch', 'me', 'change', 'language', 'line'],
  ENTRIES,
);

const MONEY_ACTIONS = screenEntries(['recharge', 'withdraw', 'exchange', 'accountRecord'], ENTRIES);

const SERVICES = screenEntries(
  [
    'lockMining',
    'pledgeList',
    'newShares',
    'followOrder',
    'service',
    'qa',
    'activity',
    'messages',
    'notifications',
    'team',
    'share',
    'welfare',
  ],
  ENTRIES,
);

/**
 * The site's header: its name (or a greeting of the signed-in user), the demo badge, the
 * language, the messages bell and the user centre.
 */
export function SiteHeader({
  look = 'bar',
  testId = 'home-header',
}: {
  look?: 'bar' | 'greeting' | 'centered';
  testId?: string;
}) {
  const { t } = useTranslation();
  const site = useSiteInfo();
  const { user } = useUser();
  const siteName = site?.siteName || 'Bourse';
  const demo = user?.accountType === ACCOUNT_TYPE.demo;
  const language = (
    <HeaderIconButton label={t('page_language')} onClick={() => navigateTo('language')}>
      <GlobalOutline />
    </HeaderIconButton>
  );
  return (
    <header className={`home-header layout-header-${look}`} data-testid={testId}>
      {/* Centred: the language on the start side, the site's name in the middle. */}
      {look === 'centered' && language}
      {look === 'centered' && <span className="spacer" />}
      {look === 'greeting' ? (
        <span className="stack layout-greeting">
          <span className="muted">{siteName}</span>
          <strong className="ellipsis" dir="auto">
            {user
              ? translate('layout_greeting', [user.nickName || user.userAccount])
              : t('account_welcome')}
          </strong>
        </span>
      ) : (
        <>
          <img src="favicon.svg" width="28" height="28" alt="" />
          <span className="site-name ellipsis">{siteName}</span>
        </>
      )}
      {demo && <span className="badge-demo">{t('account_demoBadge')}</span>}
      <span className="spacer" />
      {look !== 'centered' && language}
      {/* Messages are a signed-in user's. */}
      {user && <MessageBell />}
      <HeaderIconButton label={t('page_me')} testId="home-me" onClick={() => navigateTo('me')}>
        <UserOutline />
      </HeaderIconButton>
    </header>
  );
}

function SignInInvitation({ compact = false }: { compact?: boolean }) {
  const { t } = useTranslation();
  const site = useSiteInfo();
  return (
    <>
      {!compact && <strong className="layout-slogan">{site?.slogan || t('site_slogan')}</strong>}
      <div className="row">
        <Button
          color="primary"
          size={compact ? 'small' : 'middle'}
          onClick={() => navigateTo('login')}
          data-testid="home-login"
        >
          {t('account_login')}
        </Button>
        <Button
          size={compact ? 'small' : 'middle'}
          onClick={() => navigateTo('register')}
          data-testid="home-register"
        >
          {t('account_register')}
        </Button>
      </div>
    </>
  );
}

function Total() {
  const { user } = useUser();
  return (
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
  );
}

/** Deposit, withdraw, exchange and records as a row of round buttons. */
export function MoneyActions() {
  const { t } = useTranslation();
  const shown = MONEY_ACTIONS.filter((entry) => isBuilt(entry.route));
  return (
    <div className="money-actions" data-testid="money-actions">
      {shown.map((entry) => (
        <button
          key={entry.route}
          type="button"
          className="money-action"
          onClick={() => navigateTo(entry.route)}
        >
          <span className="money-action-icon">{entry.icon}</span>
          <span className="ellipsis">{t(entry.label)}</span>
        </button>
      ))}
    </div>
  );
}

/**
 * m-zichan: the total of assets with the money actions, or the invitation to sign in.
 * `hero` a gradient card, `strip` one line, `big` the figure alone, large.
 */
export function AssetsBlock({ look = 'hero' }: { look?: 'hero' | 'strip' | 'big' }) {
  const { signedIn } = useUser();
  if (look === 'strip') {
    return (
      <section className="card layout-assets-strip" data-testid="assets-block">
        {signedIn ? (
          <>
            <span className="stack" style={{ gap: 2, minWidth: 0 }}>
              <Total />
            </span>
            <span className="spacer" />
            <MoneyActions />
          </>
        ) : (
          <SignInInvitation compact />
        )}
      </section>
    );
  }
  return (
    <section
      className={look === 'big' ? 'layout-assets-big stack' : 'hero stack'}
      data-testid="assets-block"
    >
      {signedIn ? (
        <>
          <Total />
          <MoneyActions />
        </>
      ) : (
        <SignInInvitation />
      )}
    </section>
  );
}

/** The notices: the operator's scrolling notice when handed in, and the platform's tip. */
export function NoticeBlock({ blocks }: { blocks: HomeBlocks }) {
  const { user } = useUser();
  const notice = useTip(user?.accountType === ACCOUNT_TYPE.demo ? 'demoAccount' : 'withdrawNotice');
  return (
    <>
      {blocks.Notice && (
        <Suspense fallback={null}>
          <blocks.Notice />
        </Suspense>
      )}
      {/* Until the tips are read once, the notice's place is held: nothing below it moves. */}
      {!notice && <section className="card notice notice-pending" aria-hidden="true" />}
      {notice?.content && notice.isShow !== 0 && (
        <section className="card notice" data-testid="home-notice">
          <SoundOutline style={{ color: 'var(--accent)', flex: 'none', marginTop: 2 }} />
          <span>{notice.content}</span>
        </section>
      )}
    </>
  );
}

/** The shortcuts to the app's screens: a grid in a card, or one scrolling row of chips. */
export function Shortcuts({ look = 'grid' }: { look?: 'grid' | 'chips' }) {
  const { t } = useTranslation();
  if (look === 'grid') return <EntryGrid entries={SHORTCUTS} />;
  return (
    <nav className="layout-chips" aria-label={t('layout_shortcuts')} data-testid="shortcuts">
      {SHORTCUTS.filter((entry) => isBuilt(entry.route)).map((entry) => (
        <button
          key={entry.route}
          type="button"
          className="layout-chip"
          onClick={() => navigateTo(entry.route)}
        >
          {entry.icon}
          <span>{t(entry.label)}</span>
        </button>
      ))}
    </nav>
  );
}

/** The services grid: support, help, activities, messages, the team and rewards. */
export function ServicesGrid({ titled = true }: { titled?: boolean }) {
  const { t } = useTranslation();
  const shown = SERVICES.filter((entry) => isBuilt(entry.route));
  if (shown.length === 0) return null;
  return (
    <section className="stack" style={{ gap: 8 }} data-testid="services-grid">
      {titled && <h2 className="section-title">{t('layout_services')}</h2>}
      <EntryGrid entries={shown} />
    </section>
  );
}

/** m-news, when the app handed it in. */
export function NewsSlot({ blocks, limit }: { blocks: HomeBlocks; limit?: number }) {
  if (!blocks.News) return null;
  return (
    <Suspense fallback={null}>
      <blocks.News limit={limit} />
    </Suspense>
  );
}

/** A section heading with a "more" link. */
export function SectionHeading({ title, more }: { title: string; more?: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="row layout-section-heading">
      <h2 className="section-title">{t(title)}</h2>
      <span className="spacer" />
      {more && (
        <button type="button" className="link" onClick={more}>
          {t('market_more')}
        </button>
      )}
    </div>
  );
}
