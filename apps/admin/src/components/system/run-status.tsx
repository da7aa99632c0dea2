/** A ledger verification run's state as a tag, and how long it took. */
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { LedgerRun } from '@bourse/shared';

const COLOURS: Record<LedgerRun['status'], string> = {
  running: 'processing',
  passed: 'success',
  failed: 'error',
  error: 'warning',
};

export function RunStatusTag({ status }: { status: LedgerRun['status'] }) {
  const { t } = useTranslation();
  return (
    <Tag color={COLOURS[status]} data-testid="run-status" style={{ marginInlineEnd: 0 }}>
      {t(`ledger.status.${status}`)}
    </Tag>
  );
}

/** Seconds from start to finish, to a tenth; '–' while running. */
export function RunDuration({ run }: { run: Pick<LedgerRun, 'startTime' | 'finishTime'> }) {
  const { t } = useTranslation();
  if (!run.finishTime) return <>–</>;
  const ms = Date.parse(run.finishTime) - Date.parse(run.startTime);
  return <>{t('ledger.seconds', { value: (Math.max(0, ms) / 1000).toFixed(1) })}</>;
}

/** A count as the console's language writes it ('–' when absent). */
export function Count({ value }: { value: number | null }) {
  return <>{value === null ? '–' : value.toLocaleString()}</>;
}
