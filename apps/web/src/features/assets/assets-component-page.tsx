/**
 * The assets component (m-zichan): the account's total assets in the trade currency and every
 * currency's balance, the same summary as the wallet tab, with the way to the balance records.
 */
import { Button } from 'antd-mobile';
import { useTranslation } from '../../i18n/react';
import { DemoBadge } from '../../components/demo-account';
import { SignedInScreen } from '../../components/signed-in-screen';
import { navigateTo } from '../../lib/navigation';
import { BalanceTable, TotalAssets, useAssets } from './assets-summary';

export default function AssetsComponentPage() {
  const { t } = useTranslation();
  const assets = useAssets();
  return (
    <SignedInScreen
      testId="assets-component-page"
      title={t('tab_wallet')}
      right={assets.demo && <DemoBadge />}
    >
      <div className="page-body stack">
        <TotalAssets assets={assets} />
        <BalanceTable assets={assets} />
        <Button block fill="outline" onClick={() => navigateTo('accountRecord')}>
          {t('record_title')}
        </Button>
      </div>
    </SignedInScreen>
  );
}
