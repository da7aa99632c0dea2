import { useTranslation } from '../i18n/react';
import { switchTab } from '../lib/navigation';

/** Any path without a screen: says so and offers the way home. */
export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <div className="page page-center" data-testid="not-found">
      <div className="page-center-title">{t('page_notFoundTitle')}</div>
      <p className="muted">{t('page_notFoundText')}</p>
      <button type="button" className="button-primary" onClick={() => switchTab('home')}>
        {t('page_goHome')}
      </button>
    </div>
  );
}
