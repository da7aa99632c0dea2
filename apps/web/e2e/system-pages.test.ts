/**
 * The system pages of issue 21 at 390x844 on a touch screen: /preview-image shows the images of
 * its query full screen, a swipe goes to the next, a pinch zooms, a tap closes it and the app is
 * back where it was; /choose-location checks typed coordinates as they are typed (translated
 * errors, in Arabic too), draws the point on its offline map, and hands the choice back through
 * the device's storage; /open-location shows a given place on the same map and copies its
 * coordinates. No map service is asked: every request stays on the app's own server.
 */
import type { CDPSession, Page } from 'playwright-core';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  appUrl,
  baseUrl,
  expectToast,
  screenshot,
  stored,
  text,
  useBrowser,
  waitForRoute,
} from './browser';

const HOME = '/pages/tabs/home/home-k';

/** Three solid pictures, as data addresses. */
let images: string[] = [];

beforeAll(async () => {
  images = await Promise.all(
    [
      { r: 200, g: 60, b: 60 },
      { r: 60, g: 160, b: 90 },
      { r: 60, g: 90, b: 200 },
    ].map(async (background) => {
      const png = await sharp({
        create: { width: 300, height: 200, channels: 3, background },
      })
        .png()
        .toBuffer();
      return `data:image/png;base64,${png.toString('base64')}`;
    }),
  );
});

/** Every address the page asked for, to show no map service was. */
function requestsOf(page: Page): string[] {
  const urls: string[] = [];
  page.on('request', (request) => urls.push(request.url()));
  return urls;
}

function offSite(urls: string[]): string[] {
  const origin = new URL(baseUrl()).origin;
  return urls.filter((url) => !url.startsWith(origin) && !url.startsWith('data:'));
}

/** Opens a route on top of home, as a screen of the app would (so "back" returns home). */
async function openOverHome(page: Page, route: string): Promise<void> {
  await page.goto(appUrl(HOME));
  await page.getByTestId('home-page').waitFor();
  await page.evaluate((target) => {
    window.location.hash = target;
  }, route);
}

async function touch(
  cdp: CDPSession,
  type: 'touchStart' | 'touchMove' | 'touchEnd',
  points: [number, number][],
) {
  await cdp.send('Input.dispatchTouchEvent', {
    type,
    touchPoints: points.map(([x, y], id) => ({ x, y, id })),
  });
}

/** A finger (or two) moving from `from` to `to` in steps. */
async function gesture(cdp: CDPSession, from: [number, number][], to: [number, number][]) {
  const steps = 10;
  await touch(cdp, 'touchStart', from);
  for (let step = 1; step <= steps; step += 1) {
    await touch(
      cdp,
      'touchMove',
      from.map(([x, y], index) => [
        x + ((to[index]![0] - x) * step) / steps,
        y + ((to[index]![1] - y) * step) / steps,
      ]),
    );
    await new Promise((resolve) => setTimeout(resolve, 16));
  }
  await touch(cdp, 'touchEnd', []);
}

describe('preview-image', () => {
  const browser = useBrowser();

  it('swipes between the images, zooms with a pinch and closes back to the screen', async () => {
    const page = await browser.newPage({ touch: true });
    const requests = requestsOf(page);
    const query = new URLSearchParams({ urls: JSON.stringify(images), current: '0' });
    await openOverHome(page, `/preview-image?${query.toString()}`);
    const viewer = page.locator('.adm-image-viewer-content');
    await viewer.waitFor();
    const indicator = page.locator('.adm-image-viewer-indicator');
    await expect.poll(() => indicator.textContent()).toBe('1 / 3');
    await expect(page.locator('.adm-image-viewer-slides img').count()).resolves.toBe(3);
    await screenshot(page, 'system-preview-image-1');

    const cdp = await page.context().newCDPSession(page);
    // A swipe to the left shows the second image.
    await gesture(cdp, [[330, 420]], [[40, 420]]);
    await expect.poll(() => indicator.textContent(), { timeout: 10_000 }).toBe('2 / 3');
    await expect
      .poll(() => page.getByTestId('preview-image-page').getAttribute('data-index'))
      .toBe('1');

    // Two fingers moving apart zoom the image in.
    const scaleOf = () =>
      page.evaluate(() => {
        const slides = [...document.querySelectorAll('.adm-image-viewer-slide')];
        const img = slides[1]?.querySelector('img');
        let element = img?.parentElement ?? null;
        let scale = 1;
        while (element && !element.classList.contains('adm-image-viewer-slide')) {
          const matrix = new DOMMatrix(getComputedStyle(element).transform);
          scale *= Math.hypot(matrix.a, matrix.b);
          element = element.parentElement;
        }
        return scale;
      });
    expect(await scaleOf()).toBeCloseTo(1, 1);
    await gesture(
      cdp,
      [
        [170, 420],
        [220, 420],
      ],
      [
        [60, 420],
        [330, 420],
      ],
    );
    await expect.poll(scaleOf, { timeout: 10_000 }).toBeGreaterThan(1.5);
    await screenshot(page, 'system-preview-image-zoomed');

    // A tap closes the viewer: the app is back on the screen that opened it. (Tapped again, at
    // most twice more, when one lands while the zoom still settles: seen once with three test
    // lanes sharing two cores.)
    for (let attempt = 1; ; attempt++) {
      await page.touchscreen.tap(195, 120);
      try {
        await waitForRoute(page, HOME, 5_000);
        break;
      } catch (error) {
        if (attempt === 3) throw error;
      }
    }
    await page.getByTestId('home-page').waitFor();
    await expect(viewer.count()).resolves.toBe(0);
    expect(offSite(requests)).toEqual([]);
  });

  it('says so when the query has no image it may show', async () => {
    const page = await browser.newPage();
    const query = new URLSearchParams({
      urls: JSON.stringify(['ftp://example.com/a.png', '//example.com/b.png', 'data:text/html,x']),
    });
    await page.goto(appUrl(`/preview-image?${query.toString()}`));
    await page.getByTestId('preview-empty').waitFor();
    await expect(page.getByTestId('preview-empty').textContent()).resolves.toContain(
      text('preview_none'),
    );
  });
});

describe('choose-location', () => {
  const browser = useBrowser();

  for (const locale of ['en', 'ar'] as const) {
    it(`checks typed coordinates and hands the place back (${locale})`, async () => {
      const page = await browser.newPage({ storage: { locale } });
      const requests = requestsOf(page);
      await openOverHome(page, '/choose-location');
      const screen = page.getByTestId('choose-location-page');
      await screen.waitFor();
      const latitude = page.locator('#location-latitude');
      const longitude = page.locator('#location-longitude');
      const errors = screen.locator('.field-error');

      // Nothing typed: both are asked for, and the page stays.
      await page.getByTestId('location-confirm').click();
      await expect
        .poll(() => errors.allTextContents())
        .toEqual([
          text('hint_coordinateRequired', locale),
          text('hint_coordinateRequired', locale),
        ]);

      await latitude.fill('91');
      await longitude.fill('12.1234567');
      await expect
        .poll(() => errors.allTextContents())
        .toEqual([text('hint_latitudeInvalid', locale), text('hint_longitudeInvalid', locale)]);
      await longitude.fill('east');
      await expect
        .poll(() => errors.nth(1).textContent())
        .toBe(text('hint_longitudeInvalid', locale));
      await expect(page.getByTestId('location-marker').count()).resolves.toBe(0);
      await page.getByTestId('location-confirm').click();
      await waitForRoute(page, '/choose-location');
      await screenshot(page, `system-choose-location-errors-${locale}`);

      // Valid, a comma taken as the decimal point: the marker stands where the place is.
      await latitude.fill('25,2048');
      await longitude.fill('-55.2708');
      await expect.poll(() => errors.count()).toBe(0);
      const marker = page.getByTestId('location-marker');
      await expect(marker.getAttribute('data-x')).resolves.toBe('124.73');
      await expect(marker.getAttribute('data-y')).resolves.toBe('64.80');
      await page.locator('#location-name').fill('Harbour office');
      await page.locator('#location-address').fill('1 Quay Street');
      await screenshot(page, `system-choose-location-${locale}`);
      await page.getByTestId('location-confirm').click();
      await expectToast(page, text('location_chosen', locale));
      await waitForRoute(page, HOME);
      expect(await stored(page, 'chosenLocation')).toEqual({
        latitude: 25.2048,
        longitude: -55.2708,
        name: 'Harbour office',
        address: '1 Quay Street',
      });
      expect(offSite(requests)).toEqual([]);
    });
  }

  it('picks the point tapped on the map', async () => {
    const page = await browser.newPage();
    await page.goto(appUrl('/choose-location'));
    const map = page.locator('[data-testid="location-map"] svg');
    const box = (await map.boundingBox())!;
    // The middle of the drawing is 0°, 0°; a quarter from the left is 90° west.
    await map.click({ position: { x: box.width / 4, y: box.height / 2 } });
    // To a tenth of a degree, within the pixel the tap lands on.
    const latitude = Number(await page.locator('#location-latitude').inputValue());
    const longitude = Number(await page.locator('#location-longitude').inputValue());
    expect(Math.abs(latitude)).toBeLessThanOrEqual(1.5);
    expect(Math.abs(longitude + 90)).toBeLessThanOrEqual(1.5);
    await page.getByTestId('location-marker').waitFor();
  });
});

describe('open-location', () => {
  const browser = useBrowser();

  for (const locale of ['en', 'ar'] as const) {
    it(`shows the place with its name and address and copies its coordinates (${locale})`, async () => {
      const page = await browser.newPage({ storage: { locale } });
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
      const requests = requestsOf(page);
      const query = new URLSearchParams({
        latitude: '-33.8568',
        longitude: '151.2153',
        name: 'Opera House',
        address: 'Bennelong Point, Sydney',
      });
      await page.goto(appUrl(`/open-location?${query.toString()}`));
      const screen = page.getByTestId('open-location-page');
      await screen.waitFor();
      await expect(page.getByTestId('location-place-name').textContent()).resolves.toBe(
        'Opera House',
      );
      await expect(page.getByTestId('location-place-address').textContent()).resolves.toBe(
        'Bennelong Point, Sydney',
      );
      await expect(page.getByTestId('location-coordinates').textContent()).resolves.toBe(
        '-33.856800, 151.215300',
      );
      const marker = page.getByTestId('location-marker');
      await expect(marker.getAttribute('data-x')).resolves.toBe('331.22');
      await expect(marker.getAttribute('data-y')).resolves.toBe('123.86');
      await screenshot(page, `system-open-location-${locale}`);
      await page.getByTestId('location-copy').click();
      await expectToast(page, text('location_copied', locale));
      await expect(page.evaluate(() => navigator.clipboard.readText())).resolves.toBe(
        '-33.856800, 151.215300',
      );
      expect(offSite(requests)).toEqual([]);
    });
  }

  it('says so when the coordinates are missing or out of range', async () => {
    const page = await browser.newPage();
    await page.goto(appUrl('/open-location?latitude=95&longitude=10'));
    await page.getByTestId('location-missing').waitFor();
    await expect(page.getByTestId('location-missing').textContent()).resolves.toContain(
      text('location_missing'),
    );
  });
});
