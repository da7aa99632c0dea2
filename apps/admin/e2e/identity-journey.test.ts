/**
 * Identity verification from the user app to the operator console and back (issue 19: "a user
 * verifies level 0 and 1 through the app and an operator approves them in the console"), as
 * both meet it: a user, signed in on a phone, fills the basic level (real name, identity card and
 * its 18-digit number) on the app's verification screen; a support operator finds it in the
 * console's identity queue and approves it; the app shows the basic level approved. The user then
 * picks the front, back and a photo holding the document on the advanced screen and sends them;
 * support opens the request, the three images side by side, and approves it; the app shows the
 * advanced level approved, and the user's authLevel and authStatus agree. Both approvals are in
 * the audit log under the support operator.
 */
import type { Locator, Page } from 'playwright-core';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  accountApi,
  AUTH_LEVEL,
  AUTH_RECORD_STATUS,
  AUTH_STATUS,
  ID_TYPE,
  operatorsApi,
} from '@bourse/shared';
import {
  baseUrl,
  client,
  createOperator,
  firstAdminToken,
  registerUser,
  screenshot,
  serverText,
  signIn,
  useConsole,
  waitForRoute,
} from './console';

const PHONE = { width: 390, height: 844 } as const;
const BASIC = '/pages/user/authentication';
const ADVANCED = '/pages/user/authentication1';
const REAL_NAME = 'Ada Lovelace';
/** An identity card's number by the spec's rule: 18 digits (17 and a digit or X). */
const ID_NUMBER = '110105194912310021';
const SIDES = ['front', 'back', 'hold'] as const;

interface Box {
  x: number;
  y: number;
  width: number;
}

/** The user app at `route`, signed in as the user (its token in the device's storage). */
async function openApp(page: Page, route: string): Promise<void> {
  await page.goto(`${baseUrl()}/#${route}`);
}

/** A picture of the document's `label` side, as a phone's camera gives it (a JPEG). */
async function documentPicture(label: string) {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="1000">
    <rect width="1600" height="1000" fill="#e8eef9"/>
    <rect x="0" y="0" width="1600" height="170" fill="#274690"/>
    <text x="70" y="115" font-family="sans-serif" font-size="70" fill="#fff" font-weight="bold">IDENTITY CARD · ${label}</text>
    <rect x="70" y="250" width="400" height="520" fill="#b8c4dc"/>
    <text x="540" y="380" font-family="sans-serif" font-size="64" fill="#111">${REAL_NAME.toUpperCase()}</text>
    <text x="540" y="500" font-family="monospace" font-size="56" fill="#333">${ID_NUMBER}</text>
  </svg>`;
  return {
    name: `${label.toLowerCase()}.jpg`,
    mimeType: 'image/jpeg',
    buffer: await sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer(),
  };
}

/** A picture of the phone's screen once its toasts are gone. */
async function phoneScreen(phone: Page, name: string, element?: string): Promise<void> {
  await phone.waitForFunction(() => document.querySelectorAll('.adm-toast-mask').length === 0);
  if (element) await phone.locator(element).first().scrollIntoViewIfNeeded();
  await screenshot(phone, name);
}

/** Submits the form of a level on the phone; the request's id, from the server's answer. */
async function submitLevel(phone: Page, level: number): Promise<number> {
  const sent = phone.waitForResponse('**/api/userAuthRecord/userAuthApply');
  await phone.locator(`[data-testid="identity-form-${level}"] button[type="submit"]`).click();
  const answer = (await (await sent).json()) as { code: number; data: { id: number } };
  expect(answer.code, JSON.stringify(answer)).toBe(200);
  await phone.locator('[data-testid="auth-reviewing"]').waitFor();
  return answer.data.id;
}

/** In the console's identity queue: opens the request, checks what `check` wants, approves it. */
async function approveInConsole(
  page: Page,
  id: number,
  name: string,
  check: (drawer: Locator) => Promise<void>,
): Promise<void> {
  const review = page.locator(`[data-testid="review-${id}"]`);
  // A request sent while the queue is open arrives in it by itself.
  await review.waitFor({ timeout: 10_000 });
  const row = page.locator('tr', { has: review });
  expect(await row.textContent()).toContain(REAL_NAME);
  await review.click();
  const drawer = page.locator('[data-testid="review-drawer"]');
  await drawer.waitFor();
  expect(await drawer.locator('[data-testid="identity-document"]').textContent()).toContain(
    ID_NUMBER,
  );
  await check(drawer);
  await screenshot(page, name);
  await page.locator('[data-testid="approve"]').click();
  await page.locator('[data-testid="approve-confirm"]').click();
  await drawer.waitFor({ state: 'hidden' });
  await review.waitFor({ state: 'detached' });
}

describe('identity verification from the user app to the console', () => {
  const browser = useConsole();

  it('support approves both levels a user sent through the app, and the app shows them', async () => {
    const adminToken = await firstAdminToken();
    const support = await createOperator(adminToken, ['support']);
    const user = await registerUser();
    const userInfo = () => client(user.token).call(accountApi.userInfo);
    expect(await userInfo()).toMatchObject({ authStatus: AUTH_STATUS.none, authLevel: -1 });

    // The user's phone: the app signed in, no launch pop-up in the way.
    const phone = await browser.newPage('en');
    await phone.setViewportSize(PHONE);
    await phone.addInitScript((token: string) => {
      localStorage.setItem('uToken', JSON.stringify(token));
      localStorage.setItem('popUpVersion', JSON.stringify(Number.MAX_SAFE_INTEGER));
    }, user.token);

    // Level 0: the name and the identity card's number.
    await openApp(phone, BASIC);
    await phone.locator('[data-testid="identity-form-0"]').waitFor();
    const basicStatus = phone.locator('[data-testid="basic-status"]');
    expect(await basicStatus.getAttribute('data-status')).toBe(String(AUTH_RECORD_STATUS.none));
    await phone.locator('#identity-real-name').fill(REAL_NAME);
    const idCard = phone.locator(`[data-testid="identity-id-type-${ID_TYPE.idCard}"]`);
    await idCard.click();
    expect(await idCard.getAttribute('aria-pressed')).toBe('true');
    await phone.locator('#identity-id-number').fill(ID_NUMBER);
    await expect.poll(() => phone.locator('.field-error').count()).toBe(0);
    await phoneScreen(phone, 'identity-journey-1-basic-form-en', '#identity-id-number');
    const basicId = await submitLevel(phone, AUTH_LEVEL.basic);
    expect(await basicStatus.getAttribute('data-status')).toBe(
      String(AUTH_RECORD_STATUS.reviewing),
    );
    await phoneScreen(phone, 'identity-journey-2-basic-review-en');
    expect((await userInfo()).authStatus).toBe(AUTH_STATUS.underReview);

    // The console: support finds it in the identity queue and approves it.
    const page = await browser.newPage('en');
    await signIn(page, support);
    await page.locator('[data-testid="menu-identity"]').click();
    await waitForRoute(page, '/identity');
    await page.locator('[data-testid="queue-live"][data-live="true"]').waitFor();
    await approveInConsole(page, basicId, 'identity-journey-3-console-basic-en', async (drawer) => {
      expect(await drawer.textContent()).toContain(REAL_NAME);
    });

    // The app: level 0 approved.
    await phone.reload();
    await phone.locator('[data-testid="auth-approved"]').waitFor();
    expect(await basicStatus.getAttribute('data-status')).toBe(String(AUTH_RECORD_STATUS.approved));
    expect(await basicStatus.textContent()).toBe(serverText('identity_status_approved'));
    await phoneScreen(phone, 'identity-journey-4-basic-approved-en');
    expect(await userInfo()).toMatchObject({
      authStatus: AUTH_STATUS.verified,
      authLevel: AUTH_LEVEL.basic,
    });

    // Level 1: on to the advanced screen, the same name filled in, and the three pictures.
    await phone.locator('[data-testid="to-advanced"]').click();
    await waitForRoute(phone, ADVANCED);
    const form = phone.locator('[data-testid="identity-form-1"]');
    await form.waitFor();
    expect(await phone.locator('#identity-real-name').inputValue()).toBe(REAL_NAME);
    expect(await idCard.getAttribute('aria-pressed')).toBe('true');
    await phone.locator('#identity-id-number').fill(ID_NUMBER);
    for (const [side, label] of [
      ['front', 'FRONT'],
      ['back', 'BACK'],
      ['hold', 'HOLDING'],
    ] as const) {
      await phone
        .locator(`[data-testid="identity-file-${side}"]`)
        .setInputFiles(await documentPicture(label));
      const selector = `[data-testid="identity-preview-${side}"]`;
      await phone.locator(selector).waitFor();
      await phone.waitForFunction((preview) => {
        const image = document.querySelector<HTMLImageElement>(preview);
        return Boolean(image?.complete && image.naturalWidth > 0);
      }, selector);
    }
    await expect.poll(() => phone.locator('.field-error').count()).toBe(0);
    await phoneScreen(
      phone,
      'identity-journey-5-advanced-pictures-en',
      '[data-testid="identity-preview-hold"]',
    );
    const advancedId = await submitLevel(phone, AUTH_LEVEL.advanced);
    for (const side of SIDES)
      await phone.locator(`[data-testid="auth-document-${side}"] img`).waitFor();
    await phoneScreen(phone, 'identity-journey-6-advanced-review-en');

    // The console, still on the queue: the request arrives, its three images side by side.
    await approveInConsole(
      page,
      advancedId,
      'identity-journey-7-console-advanced-en',
      async (drawer) => {
        for (const side of SIDES) {
          const image = drawer.locator(`[data-testid="document-${side}"] img`);
          await image.waitFor();
          // Each image as the server re-encoded it, decoded in the page.
          await expect
            .poll(() => image.evaluate((element: HTMLImageElement) => element.naturalWidth))
            .toBeGreaterThan(0);
        }
        // Measured at one instant (the drawer may still be sliding in).
        const [front, back, hold] = (await drawer.evaluate(
          (element, sides) =>
            sides.map((side) => {
              const box = element
                .querySelector(`[data-testid="document-${side}"] img`)!
                .getBoundingClientRect();
              return { x: box.x, y: box.y, width: box.width };
            }),
          [...SIDES],
        )) as [Box, Box, Box];
        // One row: the same top, each to the right of the one before.
        expect(Math.round(back.y)).toBe(Math.round(front.y));
        expect(Math.round(hold.y)).toBe(Math.round(front.y));
        expect(back.x).toBeGreaterThanOrEqual(front.x + front.width);
        expect(hold.x).toBeGreaterThanOrEqual(back.x + back.width);
      },
    );

    // The app: level 1 approved, and both levels on the basic screen.
    await phone.reload();
    await phone.locator('[data-testid="auth-approved"]').waitFor();
    for (const side of SIDES)
      await phone.locator(`[data-testid="auth-document-${side}"] img`).waitFor();
    await phoneScreen(phone, 'identity-journey-8-advanced-approved-en');
    await openApp(phone, BASIC);
    const advancedStatus = phone.locator('[data-testid="advanced-status"]');
    await advancedStatus.waitFor();
    await expect
      .poll(() => advancedStatus.getAttribute('data-status'))
      .toBe(String(AUTH_RECORD_STATUS.approved));
    expect(await advancedStatus.textContent()).toBe(serverText('identity_status_approved'));
    expect(await basicStatus.getAttribute('data-status')).toBe(String(AUTH_RECORD_STATUS.approved));
    expect(await phone.locator('[data-testid="to-advanced"]').count()).toBe(0);
    await phoneScreen(phone, 'identity-journey-9-both-approved-en');
    expect(await userInfo()).toMatchObject({
      authStatus: AUTH_STATUS.verified,
      authLevel: AUTH_LEVEL.advanced,
    });

    // Both approvals are the support operator's, in the audit log.
    for (const id of [basicId, advancedId]) {
      const audit = await client(adminToken).call(operatorsApi.audit, {
        pageNum: 1,
        pageSize: 20,
        targetType: 'identity',
        targetId: String(id),
      });
      expect(audit.rows.map((entry) => [entry.action, entry.operatorId])).toContainEqual([
        'identity.approve',
        support.id,
      ]);
    }
  }, 120_000);
});
