/**
 * Start-up: antd 5 learns to render its pop-ups with React 19's root API, the console's language
 * (its texts and antd's) is loaded, then the console renders.
 */
import '@ant-design/v5-patch-for-react-19';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import i18next from 'i18next';
import { initI18n } from './i18n';
import { App } from './app/app';
import { preloadAntdLocale } from './app/antd-locale';

await initI18n();
await preloadAntdLocale(i18next.language);
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
