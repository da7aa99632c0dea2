/**
 * The layouts page of the console (white-label, issue 21) at 1440x900: an admin sees the home and
 * user-centre layouts in use with a preview of each (the app itself, framed at 390x844, on the
 * layout's own route), picks others and sees the previews follow before saving; the save reaches
 * the app's launch data and the audit log names it. A finance operator gets no layouts page and
 * the server refuses them. Photographed in English and Chinese.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Frame, Page } from 'playwright-core';
import { consoleSettingsApi, operatorsApi, settingsApi, type OperatorRole } from '@bourse/shared';
import { usePages } from '../../../tools/e2e-browser';
import { ApiError, createClient } from '../src/api/client';
import {
  actionLabel,
  createOperator,
  firstAdminToken,
  operatorToken,
  screenshot,
  signIn,
  text,
  VIEWPORT,
  type Credentials,
  type Language,
} from './console';

const server = { baseUrl: inject('consoleBaseUrl') };
let adminToken: string;

function client(token?: string) {
  return createClient({
    baseUrl: server.baseUrl,
    token: () => token,
    language: () => ({ id: 2, bcp47: 'en' }),
  });
}

async function operator(roles: OperatorRole[]) {
  const made = await createOperator(adminToken, roles, 'layouts');
  return { ...made, token: await operatorToken(made) };
}

beforeAll(async () => {
  adminToken = await firstAdminToken();
});

afterAll(async () => {
  // Other files expect the spec's tab routes.
  await client(adminToken).call(consoleSettingsApi.saveLayout, { home: 'home-k', me: 'me-k' });
});

let browser: ReturnType<typeof usePages>;

async function openConsole(language: Language, who: Credentials): Promise<Page> {
  const page = await browser.newPage({
    viewport: VIEWPORT,
    screen: VIEWPORT,
    deviceScaleFactor: 1,
    locale: language === 'zh' ? 'zh-CN' : 'en-US',
    timezoneId: 'UTC',
    storageState: {
      cookies: [],
      origins: [
        {
          origin: server.baseUrl,
          localStorage: [{ name: 'bourse.console.language', value: language }],
        },
      ],
    },
  });
  await signIn(page, who);
  return page;
}

async function openLayouts(page: Page, language: Language): Promise<void> {
  await page.goto(`${server.baseUrl}/admin/#/settings/layouts`);
  await page.getByTestId('layouts-page').waitFor();
  await page
    .locator('[data-testid="page-title"]', { hasText: text('nav.layouts', language) })
    .waitFor();
}

/** The radio input of a layout. */
function choice(page: Page, kind: 'home' | 'me', layout: string) {
  return page.locator(`input[data-testid="layout-${kind}-${layout}"]`);
}

/** The app inside a preview, once its screen has rendered. */
async function previewFrame(page: Page, kind: 'home' | 'me', testId: string): Promise<Frame> {
  const frameElement = page.getByTestId(`layout-preview-${kind}`).locator('iframe');
  await frameElement.waitFor();
  const frame = await (await frameElement.elementHandle())!.contentFrame();
  await frame!.getByTestId(testId).waitFor({ timeout: 15_000 });
  return frame!;
}

describe('layouts', () => {
  browser = usePages(new URL('../test-results/failures', import.meta.url).pathname);

  it('an admin previews layouts, chooses one of each, and the app and the audit log see it', async () => {
    const admin = await createOperator(adminToken, ['admin'], 'layadmin');
    const page = await openConsole('en', admin);
    await openLayouts(page, 'en');

    // The layouts in use, each previewed at its route in a phone-sized frame.
    await expect(choice(page, 'home', 'home-k').isChecked()).resolves.toBe(true);
    await expect(choice(page, 'me', 'me-k').isChecked()).resolves.toBe(true);
    await previewFrame(page, 'home', 'home-page');
    await previewFrame(page, 'me', 'me-page');
    const iframe = page.getByTestId('layout-preview-home').locator('iframe');
    await expect(iframe.getAttribute('width')).resolves.toBe('390');
    await expect(iframe.getAttribute('height')).resolves.toBe('844');

    // Choosing moves the previews before anything is saved.
    await page.locator('label', { has: choice(page, 'home', 'home-g') }).click();
    await page.locator('label', { has: choice(page, 'me', 'me-e') }).click();
    await expect(choice(page, 'home', 'home-g').isChecked()).resolves.toBe(true);
    await expect(iframe.getAttribute('data-route')).resolves.toBe('/pages/tabs/home/home-g');
    await expect(iframe.getAttribute('src')).resolves.toContain('#/pages/tabs/home/home-g');
    const home = await previewFrame(page, 'home', 'home-g-page');
    await home.getByTestId('market-movers').waitFor({ timeout: 15_000 });
    await previewFrame(page, 'me', 'me-e-page');
    expect((await client().call(settingsApi.siteInfo)).layout).toEqual({
      home: 'home-k',
      me: 'me-k',
    });
    await screenshot(page, 'layouts-preview-en');

    await page.getByTestId('layout-save').click();
    await page.locator('.ant-message-notice', { hasText: text('settings.common.saved') }).waitFor();
    await expect
      .poll(async () => (await client().call(settingsApi.siteInfo)).layout, { timeout: 10_000 })
      .toEqual({ home: 'home-g', me: 'me-e' });

    // The audit log has the change, by this operator, with before and after.
    const audit = await client(adminToken).call(operatorsApi.audit, {
      targetType: 'setting',
      targetId: 'layout',
      pageNum: 1,
      pageSize: 10,
    });
    expect(audit.rows[0]).toMatchObject({
      action: 'layout.update',
      operatorName: admin.username,
      before: { home: 'home-k', me: 'me-k' },
      after: { home: 'home-g', me: 'me-e' },
    });
    await page.goto(`${server.baseUrl}/admin/#/audit`);
    await page.getByText(actionLabel('layout.update')).first().waitFor();
  });

  it('is shown in Chinese with the layout in use marked', async () => {
    await client(adminToken).call(consoleSettingsApi.saveLayout, { home: 'home-h', me: 'me-g' });
    const admin = await createOperator(adminToken, ['admin'], 'layzh');
    const page = await openConsole('zh', admin);
    await openLayouts(page, 'zh');
    await page.getByText(text('layouts.intro', 'zh')).waitFor();
    await expect(choice(page, 'home', 'home-h').isChecked()).resolves.toBe(true);
    await expect(choice(page, 'me', 'me-g').isChecked()).resolves.toBe(true);
    await expect(
      page.locator('label', { has: choice(page, 'home', 'home-h') }).textContent(),
    ).resolves.toContain(text('layouts.current', 'zh'));
    await previewFrame(page, 'home', 'home-h-page');
    await previewFrame(page, 'me', 'me-g-page');
    await screenshot(page, 'layouts-zh');
  });

  it('is an admin page: finance has no menu entry and the server refuses the calls', async () => {
    const finance = await operator(['finance']);
    const page = await openConsole('en', finance);
    const menu = page.locator('.ant-menu').first();
    await menu.waitFor();
    expect(await menu.textContent()).not.toContain(text('nav.layouts'));
    for (const call of [
      () => client(finance.token).call(consoleSettingsApi.layout),
      () => client(finance.token).call(consoleSettingsApi.saveLayout, { home: 'home-h' }),
    ]) {
      const refused = await call().catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(ApiError);
      expect((refused as ApiError).msg).toBe('hint_forbidden');
    }
  });
});
