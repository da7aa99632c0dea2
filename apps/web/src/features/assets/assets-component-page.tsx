/**
 * The assets component (m-zichan): the account's total assets in the trade currency and every
 * currency's balance, the same summary as the wallet tab, with the way to the balance records.
 */
import { Button } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { ACCOUNT_TYPE } from '@bourse/shared';
import { PageHeader } from '../../components/page-header';
import { RequireSignIn } from '../../components/require-sign-in';
import { useUser } from '../../hooks/use-user';
import { navigateTo } from '../../lib/navigation';
import { getOtherValue } from '../../lib/storage';
import { BalanceTable, TotalAssets, useAssets } from './assets-summary';

export default function AssetsComponentPage() {
  const { t } = useTranslation();
  const { user } = useUser();
  const { app_decimal_no: decimals } = getOtherValue();
  const { rows, valuation } = useAssets(user?.accountType);
  const demo = user?.accountType === ACCOUNT_TYPE.demo;
  return (
    <RequireSignIn>
      <div className="page" data-testid="assets-component-page">
        <PageHeader
          title={t('tab_wallet')}
          right={demo ? <span className="badge-demo">{t('account_demoBadge')}</span> : undefined}
        />
        <div className="page-body stack">
          <TotalAssets valuation={valuation} decimals={decimals} demo={demo} />
          <BalanceTable rows={rows} decimals={decimals} />
          <Button block fill="outline" onClick={() => navigateTo('accountRecord')}>
            {t('record_title')}
          </Button>
        </div>
      </div>
    </RequireSignIn>
  );
}
