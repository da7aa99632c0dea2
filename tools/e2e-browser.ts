/**
 * What both apps' browser tests share: Debian's Chromium driven by playwright-core, one browser
 * per test file and a fresh context per page, a picture of every open page of a failed test, and
 * uncaught page errors failing the test.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import {
  chromium,
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type Page,
} from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../apps/web/e2e/chromium';

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
  });
}

interface Tracked {
  context: BrowserContext;
  errors: string[];
}

export interface Pages {
  /** A page in a fresh context made with `options`; closed after the test. */
  newPage(options: BrowserContextOptions): Promise<Page>;
}

/**
 * One browser for the test file; each `newPage` opens a fresh context. After every test the
 * contexts close and any uncaught error thrown in a page fails the test; a failed test leaves a
 * picture of every page it had open in `failuresDir`, to see what went wrong.
 */
export function usePages(failuresDir: string): Pages {
  let browser: Browser | undefined;
  const open: Tracked[] = [];

  beforeAll(async () => {
    browser = await launchBrowser();
  });

  afterEach(async (context) => {
    const tracked = open.splice(0);
    const errors = tracked.flatMap((entry) => entry.errors);
    if (context.task.result?.state === 'fail' || errors.length > 0) {
      const name = context.task.name.replace(/[^\w-]+/g, '-').slice(0, 80);
      const pages = tracked.flatMap((entry) => entry.context.pages());
      mkdirSync(failuresDir, { recursive: true });
      await Promise.all(
        pages.map((page, index) =>
          page
            .screenshot({ path: path.join(failuresDir, `${name}-${index}.png`) })
            .catch(() => undefined),
        ),
      );
    }
    await Promise.all(tracked.map((entry) => entry.context.close().catch(() => undefined)));
    expect(errors, 'uncaught errors in the page').toEqual([]);
  });

  afterAll(async () => {
    await browser?.close();
  });

  return {
    async newPage(options) {
      if (!browser) throw new Error('the browser is not running (newPage outside a test?)');
      const context = await browser.newContext(options);
      const tracked: Tracked = { context, errors: [] };
      open.push(tracked);
      context.setDefaultTimeout(15_000);
      context.setDefaultNavigationTimeout(20_000);
      const page = await context.newPage();
      page.on('pageerror', (error) => tracked.errors.push(`${error.name}: ${error.message}`));
      return page;
    },
  };
}
