/**
 * Start-up: antd 5 learns to render its pop-ups with React 19's root API, the console's language
 * is loaded, then the console renders.
 */
import '@ant-design/v5-patch-for-react-19';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { initI18n } from './i18n';
import { App } from './app/app';

await initI18n();
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
