/**
 * Start-up: the language pack is put in place, the launch flow (spec section 4) starts, and the
 * app renders while its calls travel. antd-mobile's imperative APIs (Toast, Dialog) get
 * their React 19 render function in lib/antd-render.ts, loaded with the first of them.
 */
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { initI18n } from './i18n';
import { App, startApp } from './app/app';
import './app/theme.css';

/**
 * The build's stylesheets, loaded without holding back the boot screen's paint
 * (styles-after-paint-plugin.ts), applied before the app's first render.
 */
function applyAppStyles(): Promise<unknown> {
  const links = document.querySelectorAll<HTMLLinkElement>('link[data-app-style]');
  return Promise.all(
    Array.from(links, async (link) => {
      if (!link.sheet) {
        // A stylesheet that failed before this ran fires nothing more: wait at most 10 s.
        await new Promise((resolve) => {
          link.addEventListener('load', resolve, { once: true });
          link.addEventListener('error', resolve, { once: true });
          setTimeout(resolve, 10_000);
        });
      }
      link.media = 'all';
    }),
  );
}

/**
 * After the browser's next frame: the boot screen (index.html) is painted before the app's first
 * render, a long task on a slow phone. A tab opened in the background has no frames; 100 ms then.
 */
function afterNextPaint(): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, 100);
    requestAnimationFrame(() =>
      setTimeout(() => {
        clearTimeout(timer);
        resolve();
      }, 0),
    );
  });
}

await Promise.all([initI18n(), applyAppStyles(), afterNextPaint()]);
startApp();
const root = createRoot(document.getElementById('root')!);
// The first render as a transition: React renders it in slices, leaving the main thread free
// between them (a phone's taps and the launch calls' answers are not held behind one long task).
startTransition(() =>
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
