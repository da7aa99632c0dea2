/**
 * The deposit queue by keyboard, seen by two finance operators at once: one chooses a request with
 * the arrow keys, opens it with Enter, approves it with A and confirms with Enter; the other,
 * without touching their console, sees it leave their queue as the server pushes the change (their
 * queue says it is live, and reads itself only once a minute then), and the user's balance has
 * risen once. A deposit the user submits next appears in both queues the same way.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { add, cmp } from '@bourse/shared';
import {
  balance,
  consoleUrl,
  createOperator,
  firstAdminToken,
  registerUser,
  screenshot,
  signIn,
  submitDeposit,
  text,
  useConsole,
  waitForRoute,
} from './console';

/** Opens the deposit queue (under review) of a signed-in operator. */
async function openQueue(page: Page): Promise<void> {
  await page.goto(consoleUrl('/deposits'));
  await waitForRoute(page, '/deposits');
  await page.locator('[data-testid="deposits-table"] tbody tr.ant-table-row').first().waitFor();
}

/** The index of the row holding the request's review button on the page shown. */
function rowIndex(page: Page, id: number): Promise<number> {
  return page.evaluate((testId) => {
    const rows = [
      ...document.querySelectorAll('[data-testid="deposits-table"] tbody tr.ant-table-row'),
    ];
    return rows.findIndex((row) => row.querySelector(`[data-testid="${testId}"]`) !== null);
  }, `review-${id}`);
}

describe('review queue by keyboard', () => {
  const browser = useConsole();

  it('a request approved by keyboard leaves the other operator queue at once', async () => {
    const admin = await firstAdminToken();
    const [first, second] = await Promise.all([
      createOperator(admin, ['finance']),
      createOperator(admin, ['finance']),
    ]);
    const user = await registerUser();
    const older = await submitDeposit(user, '30');
    const newer = await submitDeposit(user, '45');
    const before = await balance(user, newer.currencyName);

    const watching = await browser.newPage('en');
    await signIn(watching, second);
    await openQueue(watching);
    await watching.locator(`[data-testid="review-${older.id}"]`).waitFor();
    await watching.locator('[data-testid="queue-live"][data-live="true"]').waitFor();

    const page = await browser.newPage('en');
    await signIn(page, first);
    await openQueue(page);
    await page
      .locator('text=' + text('review.keys').slice(0, 20))
      .first()
      .waitFor();
    const target = await rowIndex(page, older.id);
    expect(target).toBeGreaterThanOrEqual(0);

    // The first row is chosen to begin with; j and ArrowDown move down, k and ArrowUp back up.
    const chosen = page.locator('tr[aria-selected="true"]');
    expect(await rowIndex(page, older.id)).toBe(target);
    for (let step = 0; step < target; step++) {
      await page.keyboard.press(step % 2 ? 'j' : 'ArrowDown');
    }
    // The newer request is above the older one (newest first): up to it and back.
    await page.keyboard.press('k');
    expect(await chosen.locator(`[data-testid="review-${newer.id}"]`).count()).toBe(1);
    await page.keyboard.press('ArrowDown');
    expect(await chosen.locator(`[data-testid="review-${older.id}"]`).count()).toBe(1);
    await screenshot(page, 'deposits-queue-keys-en');

    await page.keyboard.press('Enter');
    const drawer = page.locator('[data-testid="review-drawer"]');
    await drawer.waitFor();
    expect(await drawer.textContent()).toContain(older.orderNo);
    await page.keyboard.press('a');
    await page.locator('[data-testid="approve-confirm"]').waitFor();
    await page.keyboard.press('Enter');
    await drawer.waitFor({ state: 'hidden' });

    // The other operator did nothing: their queue no longer offers the request, the newer one stays.
    await watching
      .locator(`[data-testid="review-${older.id}"]`)
      .waitFor({ state: 'detached', timeout: 10_000 });
    expect(await watching.locator(`[data-testid="review-${newer.id}"]`).count()).toBe(1);
    expect(cmp(await balance(user, older.currencyName), add(before, older.amount))).toBe(0);

    // A new request appears in both queues as it is submitted.
    const latest = await submitDeposit(user, '55');
    await Promise.all(
      [watching, page].map((queue) =>
        queue.locator(`[data-testid="review-${latest.id}"]`).waitFor({ timeout: 10_000 }),
      ),
    );
    expect(await watching.locator('[data-testid="queue-live"]').textContent()).toBe(
      text('review.live'),
    );
    await screenshot(watching, 'deposits-queue-live-en');
  });
});
