/** Shown when the language pack or the switches cannot be loaded at launch (custom navigation). */
import { Button } from 'antd-mobile';
import { useTranslation } from '../../i18n/react';
import { loadLanguagePack, loadSwitches } from '../../api/launch';
import { useSubmit } from '../../hooks/use-submit';
import { currentLocale } from '../../i18n';
import { navigateTo, reLaunch } from '../../lib/navigation';

export default function NetworkErrorPage() {
  const { t } = useTranslation();
  const { submit, pending } = useSubmit(async () => {
    await Promise.all([loadLanguagePack(currentLocale()), loadSwitches()]);
    reLaunch('home');
  });
  return (
    <div className="page page-center" data-testid="network-error-page">
      <svg width="96" height="96" viewBox="0 0 96 96" aria-hidden="true">
        <circle cx="48" cy="48" r="44" fill="#1b1b23" stroke="#2e2e3a" strokeWidth="2" />
        <path
          d="M26 42a32 32 0 0 1 44 0M33 51a22 22 0 0 1 30 0M41 60a10 10 0 0 1 14 0"
          fill="none"
          stroke="#9a9aab"
          strokeWidth="4"
          strokeLinecap="round"
        />
        <circle cx="48" cy="68" r="4" fill="#f1a802" />
        <path d="M24 24 72 72" stroke="#ff4d4f" strokeWidth="4" strokeLinecap="round" />
      </svg>
      <div className="page-center-title">{t('net_pageTitle')}</div>
      <p className="muted">{t('net_pageText')}</p>
      <Button
        color="primary"
        block
        onClick={() => void submit()}
        loading={pending}
        disabled={pending}
        data-testid="retry"
      >
        {t('common_retry')}
      </Button>
      <Button block fill="none" onClick={() => navigateTo('line')}>
        {t('page_line')}
      </Button>
    </div>
  );
}
