/**
 * The wallet tab: a live account with nothing yet, and the demo account with its 100,000 virtual
 * USDT, valued in the trade currency; signed out, the tab asks to sign in.
 */
import { describe, expect, it } from 'vitest';
import {
  apiCall,
  appUrl,
  fund,
  operatorToken,
  registerUser,
  screenshot,
  text,
  useBrowser,
  waitForRoute,
} from './browser';

const WALLET = '/pages/user/accountDetail';

describe('wallet', () => {
  const browser = useBrowser();

  it('sends a signed-out visitor to login', async () => {
    const page = await browser.newPage();
    await page.goto(appUrl(WALLET));
    await waitForRoute(page, '/pages/user/login');
  });

  it('shows every currency, and the demo account its 100,000 USDT with the badge', async () => {
    const user = await registerUser();
    const page = await browser.newPage({ user });
    await page.goto(appUrl(WALLET));
    const usdt = page.locator('[data-testid="balance-USDT"]');
    await usdt.waitFor();
    await expect
      .poll(() => page.locator('[data-testid="wallet-total"]').textContent())
      .toBe('0.00');
    expect(await page.locator('[data-testid^="balance-"]').count()).toBeGreaterThanOrEqual(6);
    expect(
      await page.locator('[data-testid="tab-accountDetail"]').getAttribute('aria-current'),
    ).toBe('page');
    const entries = () => page.locator('.grid-entry').allTextContents();
    expect(await entries()).toEqual(
      ['area_recharge', 'area_withdraw', 'area_exchange', 'area_records'].map((key) => text(key)),
    );

    // The same user in the demo account (the session's book) sees the virtual funds.
    const switched = await apiCall('GET', '/api/userInfo/changeLoginModel', {
      token: user.token,
      query: { accountType: '2' },
    });
    expect(switched.code).toBe(200);
    await page.reload();
    await expect
      .poll(() => page.locator('[data-testid="wallet-total"]').textContent())
      .toBe('100,000.00');
    expect(await usdt.textContent()).toContain('100,000.00');
    expect(await page.locator('.badge-demo').textContent()).toBe(text('account_demoBadge'));
    // Virtual funds cannot be paid in or out, but can be exchanged and traced.
    expect(await entries()).toEqual([text('area_exchange'), text('area_records')]);
    await screenshot(page, 'wallet-demo');
  });

  it('shows money an operator credited meanwhile, the total agreeing with the balances', async () => {
    const user = await registerUser();
    const page = await browser.newPage({ user });
    await page.goto(appUrl(WALLET));
    const total = page.locator('[data-testid="wallet-total"]');
    await expect.poll(() => total.textContent()).toBe('0.00');
    // A deposit approved while the user is on another tab.
    await page.locator('[data-testid="tab-home"]').click();
    await fund(user, await operatorToken(), '250');
    await page.locator('[data-testid="tab-accountDetail"]').click();
    await expect
      .poll(() => page.locator('[data-testid="balance-USD"]').textContent())
      .toContain('250.00');
    // USD is valued at the USDC market, so the total follows the balance.
    await expect.poll(() => total.textContent()).not.toBe('0.00');
    // Credited while the wallet is on screen: the private balances topic brings it at once.
    await fund(user, await operatorToken(), '100');
    await expect
      .poll(() => page.locator('[data-testid="balance-USD"]').textContent())
      .toContain('350.00');
  });

  it('shows money credited before its subscription to the balances was live', async () => {
    const user = await registerUser();
    const page = await browser.newPage({ user });
    // The app's socket, with its subscription to the user's balances held back until released.
    const held: (() => void)[] = [];
    let holding = true;
    await page.routeWebSocket('**/ws', (socket) => {
      const server = socket.connectToServer();
      socket.onMessage((message) => {
        const { op, topic } = JSON.parse(String(message)) as { op?: string; topic?: string };
        if (holding && op === 'subscribe' && topic === 'balances')
          held.push(() => server.send(message));
        else server.send(message);
      });
      server.onMessage((message) => socket.send(message));
    });
    await page.goto(appUrl(WALLET));
    const total = page.locator('[data-testid="wallet-total"]');
    await expect.poll(() => total.textContent()).toBe('0.00');
    await expect.poll(() => held.length).toBeGreaterThan(0);
    // Credited while the server has not yet subscribed this socket: nothing tells the app.
    await fund(user, await operatorToken(), '250');
    holding = false;
    for (const send of held.splice(0)) send();
    // Once the subscription is live, the wallet reads what it may have missed.
    await expect
      .poll(() => page.locator('[data-testid="balance-USD"]').textContent())
      .toContain('250.00');
    await expect.poll(() => total.textContent()).not.toBe('0.00');
  });
});
