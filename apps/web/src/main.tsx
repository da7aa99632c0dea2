/**
 * Start-up: the language pack is put in place, the launch flow (spec section 4) starts, and the
 * app renders while its calls travel. antd-mobile's imperative APIs (Toast, Dialog) get
 * their React 19 render function in lib/antd-render.ts, loaded with the first of them.
 */
import { StrictMode } from 'react';
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

await Promise.all([initI18n(), applyAppStyles()]);
startApp();
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
