/** The demo account (paper trading, virtual funds): whether the session uses it, and its badge. */
import { useTranslation } from '../i18n/react';
import { ACCOUNT_TYPE } from '@bourse/shared';
import { useUser } from '../hooks/use-user';

/** Whether the signed-in session uses the demo account. */
export function useDemoAccount(): boolean {
  return useUser().user?.accountType === ACCOUNT_TYPE.demo;
}

export function DemoBadge() {
  const { t } = useTranslation();
  return <span className="badge-demo">{t('account_demoBadge')}</span>;
}
