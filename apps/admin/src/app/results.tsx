/** The console's full-page outcomes: a page for other roles, no such page, a failed start. */
import { Button, Result } from 'antd';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { OperatorRole } from '@bourse/shared';

/** A page opened by an operator whose roles its call does not admit. */
export function Forbidden({ roles }: { roles: readonly OperatorRole[] }) {
  const { t } = useTranslation();
  const names = roles.map((role) => t(`roles.${role}`)).join(', ');
  return (
    <div data-testid="page-forbidden">
      <Result
        status="403"
        title={t('gate.title')}
        subTitle={t('gate.text', { roles: names })}
        extra={
          <Link to="/">
            <Button type="primary">{t('gate.home')}</Button>
          </Link>
        }
      />
    </div>
  );
}

export function NotFound() {
  const { t } = useTranslation();
  return (
    <Result
      status="404"
      title={t('notFound.title')}
      extra={
        <Link to="/">
          <Button type="primary">{t('gate.home')}</Button>
        </Link>
      }
    />
  );
}

/** The signed-in operator could not be read: why, and a retry. */
export function LoadFailed({ reason, onRetry }: { reason: string; onRetry(): void }) {
  const { t } = useTranslation();
  return (
    <Result
      status="error"
      title={t('common.loadFailed')}
      subTitle={reason}
      extra={<Button onClick={onRetry}>{t('common.retry')}</Button>}
    />
  );
}
