/**
 * Authored content in the app against the real server, at 390x844 in English and in Arabic (right
 * to left): the operator writes Q&A, an activity with a picture, news and uses the seeded pages
 * through the console's API; a visitor searches the Q&A and opens an answer, reads a rich-text
 * page, goes from the activity list to an activity, and from the news list to a news item whose
 * view is counted. Each screen is pictured.
 */
import sharp from 'sharp';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  appUrl,
  baseUrl,
  operatorToken,
  screenshot,
  text,
  useBrowser,
  waitForRoute,
} from './browser';

const ARABIC = { locale: 'ar' };
const run = `${Date.now().toString(36)}`;

interface Saved {
  id: number;
  image: string;
}

/** Saves an entry through the console's API (a JSON body) as the first admin. */
async function saveContent(entry: Record<string, unknown>): Promise<Saved> {
  const response = await fetch(new URL('/admin-api/content/save', baseUrl()), {
    method: 'POST',
    headers: {
      Accept: 'application/json',
      Authorization: `Bearer ${await operatorToken()}`,
      'Content-Type': 'application/json',
    },
    body: JSON.stringify({ visible: true, sort: 0, ...entry }),
  });
  const body = (await response.json()) as { code: number; data: Saved };
  expect(body.code, JSON.stringify(body)).toBe(200);
  return body.data;
}

async function picture(page: Page, name: string): Promise<void> {
  await page.evaluate(() => document.fonts.ready);
  await screenshot(page, name);
}

/** A picture for the activity: a gradient made here, sent as a JPEG data URL. */
async function activityImage(): Promise<string> {
  const width = 780;
  const height = 320;
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y += 1)
    for (let x = 0; x < width; x += 1) {
      const offset = (y * width + x) * 3;
      pixels[offset] = 40 + Math.round((x / width) * 180);
      pixels[offset + 1] = 60 + Math.round((y / height) * 80);
      pixels[offset + 2] = 160;
    }
  const jpeg = await sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg()
    .toBuffer();
  return `data:image/jpeg;base64,${jpeg.toString('base64')}`;
}

const ids = { category: 0, deposit: 0, fee: 0, activity: 0, upcoming: 0, news: 0 };

beforeAll(async () => {
  const category = await saveContent({
    kind: 'qaCategory',
    sort: -1000,
    texts: [
      { lang: 'en', title: `Deposits ${run}` },
      { lang: 'ar', title: `الإيداع ${run}` },
    ],
  });
  ids.category = category.id;
  ids.deposit = (
    await saveContent({
      kind: 'qa',
      parentId: category.id,
      sort: 1,
      texts: [
        {
          lang: 'en',
          title: `How do I deposit? ${run}`,
          body: '<p>Open <strong>Recharge</strong>, pick a channel and follow the steps.</p><ul><li><p>Bank transfer</p></li><li><p>Crypto</p></li></ul>',
        },
        {
          lang: 'ar',
          title: `كيف أودع؟ ${run}`,
          body: '<p>افتح <strong>الإيداع</strong> واختر قناة ثم اتبع الخطوات.</p>',
        },
      ],
    })
  ).id;
  ids.fee = (
    await saveContent({
      kind: 'qa',
      parentId: category.id,
      sort: 2,
      texts: [
        {
          lang: 'en',
          title: `Is there a withdrawal fee? ${run}`,
          body: '<p>The fee is shown before you confirm, and it is the one charged.</p>',
        },
        {
          lang: 'ar',
          title: `هل توجد رسوم سحب؟ ${run}`,
          body: '<p>تظهر الرسوم قبل التأكيد، وهي الرسوم المحصلة.</p>',
        },
      ],
    })
  ).id;
  const now = Date.now();
  ids.activity = (
    await saveContent({
      kind: 'activity',
      sort: -1000,
      image: await activityImage(),
      startTime: new Date(now - 86_400_000).toISOString(),
      endTime: new Date(now + 7 * 86_400_000).toISOString(),
      texts: [
        {
          lang: 'en',
          title: `Spring trading week ${run}`,
          body: '<h2>How to join</h2><p>Verify your identity and trade any product this week.</p>',
        },
        {
          lang: 'ar',
          title: `أسبوع تداول الربيع ${run}`,
          body: '<h2>كيفية المشاركة</h2><p>وثّق هويتك وتداول أي منتج هذا الأسبوع.</p>',
        },
      ],
    })
  ).id;
  ids.upcoming = (
    await saveContent({
      kind: 'activity',
      sort: -999,
      startTime: new Date(now + 3 * 86_400_000).toISOString(),
      texts: [
        { lang: 'en', title: `Summer quiz ${run}`, body: '<p>Coming soon.</p>' },
        { lang: 'ar', title: `مسابقة الصيف ${run}`, body: '<p>قريبًا.</p>' },
      ],
    })
  ).id;
  await saveContent({
    kind: 'notice',
    sort: -1000,
    route: 'activity',
    texts: [
      { lang: 'en', title: `Spring trading week has started ${run}` },
      { lang: 'ar', title: `بدأ أسبوع تداول الربيع ${run}` },
    ],
  });
  ids.news = (
    await saveContent({
      kind: 'news',
      texts: [
        {
          lang: 'en',
          title: `Bourse adds new markets ${run}`,
          body: '<p>Forex pairs and more futures are now available.</p>',
        },
        {
          lang: 'ar',
          title: `بورصة تضيف أسواقًا جديدة ${run}`,
          body: '<p>أزواج العملات والمزيد من العقود الآجلة متاحة الآن.</p>',
        },
      ],
    })
  ).id;
});

describe('content in the app', () => {
  const browser = useBrowser();

  for (const [language, storage] of [
    ['en', {}],
    ['ar', ARABIC],
  ] as const) {
    const suffix = language === 'en' ? '' : '-ar';

    it(`searches the Q&A and opens an answer (${language})`, async () => {
      const page = await browser.newPage({ storage });
      await page.goto(appUrl('/pages/QA/QA'));
      const group = page.locator(`[data-testid="qa-group-${ids.category}"]`);
      await group.waitFor();
      expect(await group.locator('h2').textContent()).toContain(
        language === 'en' ? 'Deposits' : 'الإيداع',
      );
      if (language === 'ar')
        expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
      await picture(page, `content-qa${suffix}`);

      await page
        .locator('[data-testid="qa-search"] input')
        .fill(language === 'en' ? 'fee' : 'رسوم');
      await page
        .locator(`[data-testid="qa-question-${ids.deposit}"]`)
        .waitFor({ state: 'detached' });
      const fee = page.locator(`[data-testid="qa-question-${ids.fee}"]`);
      await fee.click();
      const answer = page.locator(`[data-testid="qa-answer-${ids.fee}"]`);
      await answer.waitFor();
      // The answer has opened in full (the panel's height animation has ended).
      await page.waitForFunction((id) => {
        const content = document.querySelector(`[data-testid="qa-answer-${id}"]`);
        const panel = content?.closest('.adm-collapse-panel-content') as HTMLElement | null;
        return panel !== null && panel !== undefined && panel.style.height === 'auto';
      }, ids.fee);
      expect(await answer.textContent()).toContain(
        language === 'en' ? 'The fee is shown' : 'تظهر الرسوم',
      );
      await picture(page, `content-qa-search${suffix}`);

      await page.locator('[data-testid="qa-search"] input').fill(`nothing-matches-${run}`);
      await page.locator('[data-testid="qa-empty"]').waitFor();
    });

    it(`shows a rich-text page (${language})`, async () => {
      const page = await browser.newPage({ storage });
      await page.goto(appUrl('/pages/richText?key=privacyPolicy'));
      const content = page.locator('[data-testid="rich-text-content"]');
      await content.waitFor();
      expect(await page.locator('.nav-title').textContent()).toBe(text('page_privacy', language));
      expect(await content.locator('h2').count()).toBeGreaterThan(3);
      await picture(page, `content-rich-text${suffix}`);

      // A page written only in English reads in English, right to left or not.
      await page.goto(appUrl('/pages/richText?key=riskDisclosure'));
      await page.locator('.nav-title', { hasText: 'Risk disclosure' }).waitFor();
      await page.goto(appUrl('/pages/richText?key=noSuchPage'));
      await page.locator('[data-testid="rich-text-missing"]').waitFor();
    });

    it(`goes from the activity list to an activity (${language})`, async () => {
      const page = await browser.newPage({ storage });
      await page.goto(appUrl('/pages/activity/index'));
      const card = page.locator(`[data-testid="activity-${ids.activity}"]`);
      await card.waitFor();
      expect(await card.locator('[data-testid="activity-status"]').textContent()).toBe(
        text('content_activity_ongoing', language),
      );
      expect(
        await page
          .locator(`[data-testid="activity-${ids.upcoming}"] [data-testid="activity-status"]`)
          .textContent(),
      ).toBe(text('content_activity_upcoming', language));
      await page.waitForFunction(
        (id) =>
          (document.querySelector(`[data-testid="activity-${id}"] img`) as HTMLImageElement | null)
            ?.complete === true,
        ids.activity,
      );
      await picture(page, `content-activities${suffix}`);
      await card.click();
      await waitForRoute(page, '/pages/activity/detail');
      const title = page.locator('[data-testid="activity-title"]');
      await title.waitFor();
      expect(await title.textContent()).toContain(
        language === 'en' ? 'Spring trading week' : 'أسبوع تداول الربيع',
      );
      await page.locator('[data-testid="activity-content"] h2').waitFor();
      await page.waitForFunction(() =>
        [...document.images].every((image) => image.complete && image.naturalWidth > 0),
      );
      await picture(page, `content-activity${suffix}`);
    });

    it(`shows the notice and the latest news on home (${language})`, async () => {
      const page = await browser.newPage({ storage });
      await page.goto(appUrl('/pages/tabs/home/home'));
      const notice = page.locator('[data-testid="notice-bar"]');
      await notice.waitFor();
      expect(await notice.textContent()).toContain(
        language === 'en' ? 'Spring trading week has started' : 'بدأ أسبوع تداول الربيع',
      );
      const news = page.locator('[data-testid="news-block"]');
      await news.waitFor();
      await news.locator(`[data-testid="news-${ids.news}"]`).waitFor();
      await news.scrollIntoViewIfNeeded();
      await picture(page, `content-home-blocks${suffix}`);
      await page.locator('[data-testid="news-more"]').click();
      await waitForRoute(page, '/components/m-news/m-news');
      await page.locator('[data-testid="news-list"]').waitFor();
    });

    it(`lists the news and counts a view (${language})`, async () => {
      const page = await browser.newPage({ storage });
      await page.goto(appUrl('/components/m-news/m-news'));
      const row = page.locator(`[data-testid="news-${ids.news}"]`);
      await row.waitFor();
      const before = Number((await row.locator('.content-views').textContent())?.trim());
      await picture(page, `content-news${suffix}`);
      await row.click();
      const views = page.locator('[data-testid="news-views"]');
      await views.waitFor();
      // A new visitor context counts once: the English run is the first view of this item; the
      // Arabic one comes from the same address on the same day, so the count stays.
      const after = Number((await views.textContent())?.replace(/\D+/g, ''));
      expect(after).toBe(language === 'en' ? before + 1 : before);
      expect(await page.locator('[data-testid="news-title"]').textContent()).toContain(
        language === 'en' ? 'Bourse adds new markets' : 'بورصة تضيف أسواقًا جديدة',
      );
      await picture(page, `content-news-item${suffix}`);
    });
  }
});
