/**
 * Issue 21's screens in each of the 19 languages at 390×844, as a signed-in user with something to
 * read on each: every route (messages, notifications, customer service, Q&A, a rich-text page,
 * activities, news, the component pages, the four extra homes and six extra user centres, the
 * image preview and the two location pages) shows its screen with content, in the language's
 * direction (Arabic right to left), and no text of it is a locale key left untranslated or a
 * `{0}` left unfilled. The screens are opened inside the app (the hash changes), as a user moves
 * between them, so 19 × 24 screens take a couple of minutes.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { LANGUAGES } from '@bourse/shared';
import {
  appUrl,
  baseUrl,
  operatorPost,
  registerUser,
  screenshot,
  untranslated,
  useBrowser,
  type RegisteredUser,
} from './browser';

const LOCALES = LANGUAGES.map((language) => language.key);
const RTL = new Set<string>(LANGUAGES.filter((language) => language.rtl).map((l) => l.key));

let user: RegisteredUser;
const ids = { message: 0, activity: 0, news: 0 };
let image = '';

beforeAll(async () => {
  user = await registerUser();
  ids.message = (
    await operatorPost<{ id: number }>('/messages/save', {
      typeId: 2,
      kind: 2,
      userAccount: user.email,
      title: { en: 'Your account is ready' },
      content: { en: '<p>Welcome to <strong>Bourse</strong>.</p>' },
    })
  ).id;
  const activity = await operatorPost<{ id: number; image: string }>('/content/save', {
    kind: 'activity',
    visible: true,
    sort: 0,
    startTime: new Date(Date.now() - 86_400_000).toISOString(),
    endTime: new Date(Date.now() + 30 * 86_400_000).toISOString(),
    texts: [{ lang: 'en', title: 'Trading week', body: '<p>Trade and learn all week.</p>' }],
  });
  ids.activity = activity.id;
  ids.news = (
    await operatorPost<{ id: number }>('/content/save', {
      kind: 'news',
      visible: true,
      sort: 0,
      texts: [{ lang: 'en', title: 'Markets open', body: '<p>Markets opened higher.</p>' }],
    })
  ).id;
  image = `${baseUrl()}/favicon.svg`;
});

/** The screens, each with its route and the element that stands for it once it has content. */
function screens(): { route: string; ready: string }[] {
  const urls = encodeURIComponent(JSON.stringify([image, image]));
  return [
    { route: '/pages/msg/msg-list', ready: '[data-testid="msg-rows"]' },
    { route: `/pages/msg/msg-detail?id=${ids.message}`, ready: '[data-testid="msg-content"]' },
    { route: '/pages/notifyList/notifyList', ready: '[data-testid="notify-list-page"]' },
    {
      route: '/pages/service/service',
      ready: '[data-testid="service-page"] textarea, [data-testid="service-page"] input',
    },
    { route: '/pages/QA/QA', ready: '[data-testid="qa-search"]' },
    { route: '/pages/richText?key=privacyPolicy', ready: '[data-testid="rich-text-content"]' },
    { route: '/pages/activity/index', ready: '[data-testid="activity-page"]' },
    { route: `/pages/activity/detail?id=${ids.activity}`, ready: '[data-testid="activity-title"]' },
    { route: '/components/m-news/m-news', ready: '[data-testid="news-list"]' },
    { route: `/components/m-news/m-news?id=${ids.news}`, ready: '[data-testid="news-item"]' },
    { route: '/components/m-zichan/m-zichan', ready: '[data-testid="assets-component-page"]' },
    {
      route: '/components/m-quolist/m-quolist',
      ready: '[data-testid="quote-list-component-page"]',
    },
    { route: '/pages/tabs/home/home', ready: '[data-testid="home-default-page"]' },
    { route: '/pages/tabs/home/home-j', ready: '[data-testid="home-j-page"]' },
    { route: '/pages/tabs/home/home-g', ready: '[data-testid="home-g-page"]' },
    { route: '/pages/tabs/home/home-h', ready: '[data-testid="home-h-page"]' },
    { route: '/pages/tabs/me/me', ready: '[data-testid="me-default-page"]' },
    { route: '/pages/tabs/me/me-f', ready: '[data-testid="me-f-page"]' },
    { route: '/pages/tabs/me/me-j', ready: '[data-testid="me-j-page"]' },
    { route: '/pages/tabs/me/me-g', ready: '[data-testid="me-g-page"]' },
    { route: '/pages/tabs/me/me-h', ready: '[data-testid="me-h-page"]' },
    { route: '/pages/tabs/me/me-e', ready: '[data-testid="me-e-page"]' },
    { route: `/preview-image?urls=${urls}`, ready: '[class*="adm-image-viewer"] img' },
    { route: '/choose-location', ready: '[data-testid="location-latitude"]' },
    {
      route: '/open-location?latitude=25.2048&longitude=55.2708&name=Office&address=Main%20street',
      ready: '[data-testid="location-place-name"]',
    },
  ];
}

describe('issue 21 screens in every language', () => {
  const browser = useBrowser();

  for (const locale of LOCALES) {
    it(`shows each screen with content, translated, ${RTL.has(locale) ? 'right to left' : 'left to right'} (${locale})`, async () => {
      const page = await browser.newPage({ user, storage: { locale } });
      await page.goto(appUrl('/pages/msg/msg-list'));
      for (const { route, ready } of screens()) {
        await page.evaluate((hash) => (window.location.hash = hash), route);
        const element = page.locator(ready).first();
        await element.waitFor();
        expect(await page.evaluate(() => document.documentElement.dir), route).toBe(
          RTL.has(locale) ? 'rtl' : 'ltr',
        );
        expect(await untranslated(page), `${route} (${locale})`).toEqual([]);
      }
      if (locale === 'th' || locale === 'ko') await screenshot(page, `every-language-${locale}`);
    }, 120_000);
  }
});
