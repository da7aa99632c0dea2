/**
 * Start-up: the language pack is put in place, then the app renders and the launch flow (spec
 * section 4) runs behind the first screen. antd-mobile's imperative APIs (Toast, Dialog) get
 * their React 19 render function in lib/antd-render.ts, loaded with the first of them.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { initI18n } from './i18n';
import { App } from './app/app';
import './app/theme.css';

await initI18n();
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
