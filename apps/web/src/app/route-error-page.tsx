import { useRouteError } from 'react-router';
import { useTranslation } from '../i18n/react';
import { isChunkLoadError } from '../lib/chunks';

/**
 * A screen that could not load: its code did not arrive (ChunkLoadError, spec section 8) or failed
 * to start. Says so and offers to reload the app, which fetches the current build.
 */
export function RouteErrorPage() {
  const { t } = useTranslation();
  const error = useRouteError();
  if (!isChunkLoadError(error)) console.error('screen failed', error);
  return (
    <div className="page page-center" data-testid="route-error" role="alert">
      <div className="page-center-title">{t('page_chunkLoadTitle')}</div>
      <p className="muted">{t('page_chunkLoadText')}</p>
      <button
        type="button"
        className="button-primary"
        data-testid="reload"
        onClick={() => window.location.reload()}
      >
        {t('page_reload')}
      </button>
    </div>
  );
}
