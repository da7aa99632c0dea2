/**
 * The ledger (finance, admin): the latest verification with its progress or verdict, the button
 * that starts one (admins), every run kept, and the platform accounts' balances. Nothing here
 * changes the ledger: it is only read (PRODUCT section 1.3).
 */
import { Card } from 'antd';
import { useTranslation } from 'react-i18next';
import { PlatformBalances } from '../components/system/platform-balances';
import { RunsTable } from '../components/system/runs-table';
import { VerificationCard } from '../components/system/verification-card';

export default function LedgerPage() {
  const { t } = useTranslation();
  return (
    <div style={{ display: 'grid', gap: 24 }}>
      <VerificationCard />
      <Card title={t('ledger.runs')}>
        <RunsTable />
      </Card>
      <Card title={t('ledger.platform')} data-testid="platform">
        <PlatformBalances />
      </Card>
    </div>
  );
}
