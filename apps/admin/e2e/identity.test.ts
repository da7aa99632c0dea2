/**
 * The identity queue: a support operator finds a user's basic verification in the queue, opens it
 * (name and document in full) and approves it, and the user's authStatus says verified; the
 * user's advanced request shows its three images side by side, which support rejects with a
 * reason the user reads; each image opened is in the audit log. Finance has no identity page and
 * the server refuses it; the levels features need are an admin's page.
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  accountApi,
  consoleIdentityApi,
  identityApi,
  operatorsApi,
  type AuthApplyBody,
} from '@bourse/shared';
import { ApiError } from '../src/api/client';
import {
  client,
  consoleUrl,
  createOperator,
  firstAdmin,
  firstAdminToken,
  operatorToken,
  registerUser,
  screenshot,
  signIn,
  text,
  useConsole,
  waitForRoute,
  type TestUser,
} from './console';

/** A document picture: a card with the user's name and number, as a phone would send it. */
async function documentImage(label: string, name: string): Promise<string> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="860" height="540">
    <rect width="860" height="540" rx="28" fill="#e8eef9"/>
    <rect x="0" y="0" width="860" height="90" rx="28" fill="#274690"/>
    <text x="40" y="60" font-family="sans-serif" font-size="36" fill="#fff" font-weight="bold">PASSPORT · ${label}</text>
    <rect x="40" y="130" width="220" height="280" fill="#b8c4dc"/>
    <text x="300" y="200" font-family="sans-serif" font-size="34" fill="#111">${name}</text>
    <text x="300" y="270" font-family="monospace" font-size="30" fill="#333">P1234567</text>
  </svg>`;
  const jpeg = await sharp(Buffer.from(svg)).jpeg({ quality: 80 }).toBuffer();
  return `data:image/jpeg;base64,${jpeg.toString('base64')}`;
}

let sequence = 0;
function apply(user: TestUser, body: Omit<AuthApplyBody, 'requestId'>) {
  return client(user.token).call(identityApi.authApply, {
    ...body,
    requestId: `identity-${user.id}-${++sequence}`,
  });
}

describe('identity queue', () => {
  const browser = useConsole();

  it('support approves a basic verification and rejects an advanced one, images side by side', async () => {
    const admin = await firstAdminToken();
    const support = await createOperator(admin, ['support']);
    const user = await registerUser();
    const basic = await apply(user, {
      authLevel: 0,
      realName: 'Ada Lovelace',
      idType: 2,
      idNumber: 'P1234567',
    });

    const page = await browser.newPage('en');
    await signIn(page, support);
    await page.locator('[data-testid="menu-identity"]').click();
    await waitForRoute(page, '/identity');
    await page.locator('[data-testid="queue-live"][data-live="true"]').waitFor();
    await page.locator(`[data-testid="review-${basic.id}"]`).click();
    const drawer = page.locator('[data-testid="review-drawer"]');
    await drawer.waitFor();
    expect(await drawer.locator('[data-testid="identity-document"]').textContent()).toContain(
      'P1234567',
    );
    expect(await drawer.textContent()).toContain(text('identity.noImages'));
    await screenshot(page, 'identity-basic-en');
    await page.locator('[data-testid="approve"]').click();
    await page.locator('[data-testid="approve-confirm"]').click();
    await drawer.waitFor({ state: 'hidden' });
    expect((await client(user.token).call(accountApi.userInfo)).authStatus).toBe(2);

    // The advanced request arrives in the open queue by itself.
    const advanced = await apply(user, {
      authLevel: 1,
      realName: 'Ada Lovelace',
      idType: 2,
      idNumber: 'P1234567',
      frontImage: await documentImage('FRONT', 'Ada Lovelace'),
      backImage: await documentImage('BACK', 'Ada Lovelace'),
      holdImage: await documentImage('HELD', 'Ada Lovelace'),
    });
    await page.locator(`[data-testid="review-${advanced.id}"]`).click({ timeout: 10_000 });
    await drawer.waitFor();
    for (const side of ['front', 'back', 'hold'])
      await drawer.locator(`[data-testid="document-${side}"] img`).waitFor();
    await screenshot(page, 'identity-advanced-en');
    await drawer.locator('[data-testid="reject"]').click();
    const dialog = page.locator('.ant-modal', { has: page.locator('[data-testid="reason"]') });
    await dialog.waitFor();
    await dialog.locator('[data-testid="reason-preset"]').click();
    const reason = text('identity.reasons.2');
    await page.locator('.ant-select-item-option', { hasText: reason }).click();
    await page.locator('[data-testid="reject-confirm"]').click();
    await drawer.waitFor({ state: 'hidden' });
    const seen = await client(user.token).call(identityApi.authDetail, { authLevel: 1 });
    expect(seen).toMatchObject({ status: 2, rejectReason: reason });

    const audit = await client(admin).call(operatorsApi.audit, {
      targetType: 'identity',
      targetId: String(advanced.id),
      pageNum: 1,
      pageSize: 20,
    });
    expect(audit.rows.map((row) => row.action).sort()).toEqual([
      'identity.reject',
      'identity.viewDocument',
      'identity.viewDocument',
      'identity.viewDocument',
    ]);

    // The levels features need are an admin's setting: no page of support's.
    expect(await page.locator('[data-testid="menu-identityRequirements"]').count()).toBe(0);
    const desk = await browser.newPage('en');
    await signIn(desk, firstAdmin());
    await desk.locator('[data-testid="menu-identityRequirements"]').click();
    await desk.locator('[data-testid="identity-requirements-table"]').waitFor();
    await desk.locator('[data-testid="requirement-withdraw"]').waitFor();
    await screenshot(desk, 'identity-requirements-en');
  });

  it('is no page of finance, and the server refuses finance', async () => {
    const admin = await firstAdminToken();
    const finance = await createOperator(admin, ['finance']);
    const page = await browser.newPage('zh');
    await signIn(page, finance);
    await page.locator('[data-testid="menu-deposits"]').waitFor();
    expect(await page.locator('[data-testid="menu-identity"]').count()).toBe(0);
    const refused = await client(await operatorToken(finance))
      .call(consoleIdentityApi.identityRecords, { pageNum: 1, pageSize: 10 })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).status).toBe(403);
    await page.goto(consoleUrl('/identity'));
    await page.locator('.ant-result', { hasText: text('gate.title', 'zh') }).waitFor();
  });
});
