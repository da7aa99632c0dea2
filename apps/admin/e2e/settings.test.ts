/**
 * The settings pages through the console (the market feed simulated, so there are products, and
 * API lines set in the console tests' server): an admin hides a product and the user API
 * no longer lists it, turns a switch off and the app's launch data says so, and sets otherValue (a
 * value out of bounds is stopped on its field); a finance operator changes a fee (a rate too high
 * refused on its field) and the app's fee list has it, sees before saving that a withdrawal
 * channel's raised minimum applies only after the notice and from when, and finds a currency in
 * use locked; finance sees no admin-only settings page and a support operator none at all, and the
 * server refuses them. Every settings page is photographed in English and Chinese.
 */
import { beforeAll, describe, expect, inject, it, onTestFinished } from 'vitest';
import type { Page } from 'playwright-core';
import {
  accountApi,
  add,
  consoleSettingsApi,
  operatorsApi,
  quotesApi,
  settingsApi,
  type OperatorRole,
  type ProductConfig,
} from '@bourse/shared';
import { usePages } from '../../../tools/e2e-browser';
import { ApiError, createClient } from '../src/api/client';
import {
  createOperator,
  firstAdminToken,
  operatorToken,
  screenshot,
  serverText,
  signIn,
  text,
  VIEWPORT,
  type Credentials,
  type Language,
} from './console';
import { NOTICE_HOURS } from './global-setup';

const server = { baseUrl: inject('consoleBaseUrl') };
let adminToken: string;

function client(token?: string) {
  return createClient({
    baseUrl: server.baseUrl,
    token: () => token,
    language: () => ({ id: 2, bcp47: 'en' }),
  });
}

/**
 * An operator who chose their own password (and turned two-factor on, for finance and admin): the
 * console opens on its pages at once; with a session of theirs.
 */
async function operator(roles: OperatorRole[]) {
  const made = await createOperator(adminToken, roles, 'settings');
  return { ...made, token: await operatorToken(made) };
}

beforeAll(async () => {
  adminToken = await firstAdminToken();
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

/** The console of an admin of its own (each signs in once: no wait for a code's next step). */
async function adminConsole(language: Language): Promise<Page> {
  return openConsole(language, await createOperator(adminToken, ['admin'], 'setadmin'));
}

async function visit(page: Page, route: string, testId: string, language: Language, key: string) {
  await page.goto(`${server.baseUrl}/admin/#${route}`);
  await page.locator(`[data-testid="${testId}"]`).waitFor();
  await page
    .locator('[data-testid="page-title"]', { hasText: text(`nav.${key}`, language) })
    .waitFor();
  // Tables have rows (or their empty text) once loaded.
  await page.waitForFunction(() => !document.querySelector('.ant-spin-spinning'));
}

/** The input of a field by its test id (antd puts it on the input or on a wrapper). */
function inputOf(page: Page, testId: string) {
  return page.locator(`input[data-testid="${testId}"], [data-testid="${testId}"] input`).first();
}

async function expectMessage(page: Page, message: string): Promise<void> {
  await page.locator('.ant-message-notice', { hasText: message }).first().waitFor();
}

/** The drawer's field error under the field named `name`. */
function fieldError(page: Page, drawer: string, id: string) {
  return page.locator(
    `[data-testid="${drawer}"] .ant-form-item:has(#${id}) .ant-form-item-explain-error`,
  );
}

const PAGES: [string, string, string][] = [
  ['/settings/products', 'products-page', 'products'],
  ['/settings/fees', 'fees-page', 'fees'],
  ['/settings/fast-trade', 'fast-trade-page', 'fastTrade'],
  ['/settings/channels', 'channels-page', 'channels'],
  ['/settings/currencies', 'currencies-page', 'currencies'],
  ['/settings/switches', 'switches-page', 'switches'],
  ['/settings/other-value', 'other-value-page', 'otherValue'],
  ['/settings/api-lines', 'api-lines-page', 'apiLines'],
];

describe('settings', () => {
  browser = usePages(new URL('../test-results/failures', import.meta.url).pathname);

  it('an admin hides a product and the user API no longer lists it', async () => {
    const products = await client(adminToken).call(operatorsApi.products, {
      pageNum: 1,
      pageSize: 100,
      productType: 2,
    });
    const product = products.rows.find((item: ProductConfig) => item.isVisible === 1)!;
    expect(product).toBeDefined();
    const listed = async () =>
      (await client().call(quotesApi.cryptoProducts, { pageNum: 1, pageSize: 100 })).rows.map(
        (row) => row.productCode,
      );
    expect(await listed()).toContain(product.productCode);

    const page = await adminConsole('en');
    // The menu's settings group, every page of it for an admin.
    await visit(page, '/settings/products', 'products-page', 'en', 'products');
    for (const [, , key] of PAGES)
      await page
        .locator('.ant-menu', { hasText: text(`nav.${key}`) })
        .first()
        .waitFor();
    // Filtered on the server: the table holds the product's row alone once the answer is in.
    await inputOf(page, 'product-search').fill(product.productCode);
    const rows = page.locator('[data-testid="products-table"] tr.ant-table-row');
    await expect
      .poll(() => rows.allTextContents())
      .toEqual([expect.stringContaining(product.productCode)]);
    await screenshot(page, 'settings-products-en');

    await page.locator(`[data-testid="edit-product-${product.productCode}"]`).click();
    const drawer = page.locator('[data-testid="product-drawer"]');
    await drawer.waitFor();
    // A leverage list out of order is stopped on its field, in the server's words.
    await page.locator('[data-testid="product-leverages"]').fill('10, 5');
    await page.locator('[data-testid="product-visible"]').click();
    await page.locator('[data-testid="setting-save"]').click();
    await fieldError(page, 'product-drawer', 'leverages')
      .filter({ hasText: serverText('hint_leveragesInvalid') })
      .waitFor();
    await screenshot(page, 'settings-product-drawer-en');
    await page.locator('[data-testid="product-leverages"]').fill(product.leverages.join(', '));
    await page.locator('[data-testid="setting-save"]').click();
    await expectMessage(page, text('settings.common.saved'));
    await rows
      .first()
      .locator('.ant-tag', { hasText: text('settings.common.hidden') })
      .waitFor();

    expect(await listed()).not.toContain(product.productCode);
    const audit = await client(adminToken).call(operatorsApi.audit, {
      targetType: 'product',
      pageNum: 1,
      pageSize: 10,
    });
    expect(audit.rows[0]).toMatchObject({
      action: 'product.update',
      before: { isVisible: 1 },
      after: { isVisible: 0 },
    });
    await client(adminToken).call(operatorsApi.updateProduct, {
      productType: product.productType,
      productCode: product.productCode,
      isVisible: 1,
    });
  });

  it('an admin turns a switch off and sets otherValue, checked on its fields', async () => {
    // The server is every console test's: what this changes is put back after.
    const decimalsBefore = (await client(adminToken).call(consoleSettingsApi.otherValue)).values
      .app_decimal_no;
    onTestFinished(async () => {
      await client(adminToken).call(consoleSettingsApi.saveSwitch, {
        switchName: 'registerByPhone',
        status: 1,
      });
      await client(adminToken).call(consoleSettingsApi.saveOtherValue, {
        app_decimal_no: decimalsBefore,
      });
    });
    const page = await adminConsole('en');
    await visit(page, '/settings/switches', 'switches-page', 'en', 'switches');
    const toggle = page.locator('[data-testid="switch-registerByPhone"]');
    await toggle.waitFor();
    expect(await toggle.getAttribute('aria-checked')).toBe('true');
    await toggle.click();
    await expectMessage(page, text('settings.common.saved'));
    await page.waitForFunction(
      () =>
        document
          .querySelector('[data-testid="switch-registerByPhone"]')
          ?.getAttribute('aria-checked') === 'false',
    );
    await screenshot(page, 'settings-switches-en');
    // The app's launch data: registration by phone is off (settings are cached a few seconds).
    await expect
      .poll(async () => (await client().call(settingsApi.siteInfo)).register.phone, {
        timeout: 10_000,
      })
      .toBe(false);

    await visit(page, '/settings/other-value', 'other-value-page', 'en', 'otherValue');
    const decimals = inputOf(page, 'other-app_decimal_no');
    await decimals.fill('9');
    await page.locator('[data-testid="other-value-save"]').click();
    await page
      .locator('.ant-form-item:has(#app_decimal_no) .ant-form-item-explain-error')
      .waitFor();
    await screenshot(page, 'settings-other-value-error-en');
    await decimals.fill('4');
    await page.locator('[data-testid="other-value-save"]').click();
    await expectMessage(page, text('settings.common.saved'));
    await expect
      .poll(async () => (await client().call(settingsApi.siteInfo)).otherValue.app_decimal_no, {
        timeout: 10_000,
      })
      .toBe(4);

    await visit(page, '/settings/api-lines', 'api-lines-page', 'en', 'apiLines');
    await page
      .locator('[data-testid="api-lines-table"]', { hasText: 'https://eu.example.com' })
      .waitFor();
    await screenshot(page, 'settings-api-lines-en');
  });

  it('a finance operator changes a fee and previews a withdrawal channel’s notice', async () => {
    const finance = await operator(['finance']);
    const page = await openConsole('en', finance);
    // Finance sees its settings, not the admin's.
    await visit(page, '/settings/fees', 'fees-page', 'en', 'fees');
    const menu = page.locator('.ant-menu').first();
    expect(await menu.textContent()).not.toContain(text('nav.products'));
    expect(await menu.textContent()).not.toContain(text('nav.switches'));
    await expect(
      client(finance.token).call(consoleSettingsApi.saveSwitch, {
        switchName: 'fastTrade',
        status: 0,
      }),
    ).rejects.toMatchObject({ status: 403 });

    await page.locator('[data-testid="edit-fee-2-1-1"]').click();
    await page.locator('[data-testid="fee-drawer"]').waitFor();
    await page.locator('[data-testid="fee-rate"]').fill('0.2');
    await page.locator('[data-testid="setting-save"]').click();
    await fieldError(page, 'fee-drawer', 'feeRate')
      .filter({ hasText: serverText('hint_feeRateTooHigh') })
      .waitFor();
    await screenshot(page, 'settings-fee-error-en');
    await page.locator('[data-testid="fee-rate"]').fill('0.0015');
    await page.locator('[data-testid="setting-save"]').click();
    await expectMessage(page, text('settings.common.saved'));
    await screenshot(page, 'settings-fees-en');
    await expect
      .poll(
        async () =>
          (await client().call(settingsApi.feeSettings)).rows.find(
            (fee) => fee.productType === 2 && fee.PositionType === 1 && fee.exType === 1,
          )?.feeRate,
        { timeout: 10_000 },
      )
      .toBe('0.0015');

    // A withdrawal channel's minimum raised: shown before saving as in force after the notice.
    await visit(page, '/settings/channels', 'channels-page', 'en', 'channels');
    const channels = await client(finance.token).call(operatorsApi.withdrawChannels, {
      pageSize: 100,
    });
    const channel = channels.rows.find((item) => item.is_visible === 1)!;
    await page.locator(`[data-testid="edit-withdraw-${channel.id}"]`).click();
    await page.locator('[data-testid="withdraw-drawer"]').waitFor();
    const raised = add(channel.min_amount, '5');
    await page.locator('[data-testid="withdraw-min"]').fill(raised);
    const before = Date.now();
    await page.locator('[data-testid="setting-save"]').click();
    const later = page.locator('[data-testid="preview-later"]');
    await later.waitFor();
    expect(await later.textContent()).toContain(text('settings.channels.terms.minAmount'));
    expect(await later.textContent()).toContain(raised);
    const effective = new Date(before + NOTICE_HOURS * 3_600_000);
    // The date it applies, as the console writes it (YYYY/MM/DD in English).
    const day = `${String(effective.getUTCMonth() + 1).padStart(2, '0')}/${String(effective.getUTCDate()).padStart(2, '0')}/${effective.getUTCFullYear()}`;
    expect(await later.textContent()).toContain(day);
    await screenshot(page, 'settings-withdraw-preview-en');
    await page
      .locator('[data-testid="setting-save"]', { hasText: text('settings.channels.confirmSave') })
      .click();
    await expectMessage(page, text('settings.common.saved'));
    const pending = page.locator(
      `tr:has([data-testid="edit-withdraw-${channel.id}"]) [data-testid="pending-changes"]`,
    );
    await pending.waitFor();
    expect(await pending.textContent()).toContain(raised);
    await screenshot(page, 'settings-channels-en');

    // A currency in use: the form says so and keeps its decimals.
    await visit(page, '/settings/currencies', 'currencies-page', 'en', 'currencies');
    await screenshot(page, 'settings-currencies-en');
    await page.locator('[data-testid="edit-currency-USDT"]').click();
    await page.locator('[data-testid="currency-in-use"]').waitFor();
    expect(await inputOf(page, 'currency-scale').isDisabled()).toBe(true);
    await screenshot(page, 'settings-currency-drawer-en');
    const refusal = await client(finance.token)
      .call(consoleSettingsApi.saveCurrency, {
        id: 3,
        currencyName: 'USDT',
        currencyType: 2,
        walletAddressType: 'ERC20/TRC20/BEP20',
        scale: 2,
        icon: '',
        sort: 0,
        isVisible: 1,
      })
      .catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ApiError);
    expect(refusal).toMatchObject({ msg: 'hint_currencyInUse', params: ['scale'] });

    await visit(page, '/settings/fast-trade', 'fast-trade-page', 'en', 'fastTrade');
    await screenshot(page, 'settings-fast-trade-en');
  });

  it('a support operator sees no settings, and the server refuses them', async () => {
    const support = await operator(['support']);
    const page = await openConsole('en', support);
    await page.locator('.ant-menu').first().waitFor();
    expect(await page.locator('.ant-menu').first().textContent()).not.toContain(
      text('nav.group.settings'),
    );
    await page.goto(`${server.baseUrl}/admin/#/settings/fees`);
    await page.locator('text=' + text('gate.title')).waitFor();
    for (const call of [
      () => client(support.token).call(operatorsApi.fees),
      () => client(support.token).call(consoleSettingsApi.currencies, { pageNum: 1, pageSize: 10 }),
      () => client(support.token).call(consoleSettingsApi.otherValue),
    ])
      await expect(call()).rejects.toMatchObject({ status: 403 });
  });

  it('every settings page in Chinese', async () => {
    const page = await adminConsole('zh');
    for (const [route, testId, key] of PAGES) {
      await visit(page, route, testId, 'zh', key);
      await screenshot(page, `settings-${key}-zh`);
    }
    // The withdrawal preview in Chinese.
    await visit(page, '/settings/channels', 'channels-page', 'zh', 'channels');
    await page.locator('[data-testid^="edit-withdraw-"]').first().click();
    await page.locator('[data-testid="withdraw-drawer"]').waitFor();
    const min = page.locator('[data-testid="withdraw-min"]');
    await min.fill(add(await min.inputValue(), '1'));
    await page.locator('[data-testid="setting-save"]').click();
    await page.locator('[data-testid="withdraw-preview"]').waitFor();
    expect(await page.locator('[data-testid="withdraw-preview"]').textContent()).toContain(
      text('settings.channels.terms.minAmount', 'zh'),
    );
    await screenshot(page, 'settings-withdraw-preview-zh');
    // And the users' app still registers by email.
    const reg = await client().call(accountApi.register, {
      regType: 1,
      userAccount: `settings.${Date.now()}@example.com`,
      userPwd: 'Quokka7Harbor',
    });
    expect(reg.token).toBeTruthy();
  });
});
