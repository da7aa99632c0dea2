/** The custom navigation of the login and register screens: close, and the language. */
import { GlobalOutline, LeftOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { navigateBack, navigateTo } from '../../lib/navigation';

export function AuthHeader({ title, subtitle }: { title: string; subtitle: string }) {
  const { t } = useTranslation();
  return (
    <>
      <div className="auth-header">
        <button type="button" aria-label={t('common_back')} onClick={() => navigateBack(1)}>
          <LeftOutline className="flip-rtl" />
        </button>
        <button
          type="button"
          aria-label={t('page_language')}
          onClick={() => navigateTo('language')}
        >
          <GlobalOutline />
        </button>
      </div>
      <div className="auth-title">
        <h1>{title}</h1>
        <div className="muted">{subtitle}</div>
      </div>
    </>
  );
}
