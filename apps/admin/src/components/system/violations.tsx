/**
 * What a failed verification found: each violation by its check, in the console's language from
 * the values the verifier found, with the verifier's own line (as `npm run ledger:verify` prints
 * it) beside it. A run keeps at most 20 of each check, then a count of the rest.
 */
import { Table, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import type { LedgerViolation } from '@bourse/shared';

/** The checks that find violations (the last one only counts). */
type FoundBy = Exclude<LedgerViolation['check'], 'counts'>;

export function ViolationList({ violations }: { violations: LedgerViolation[] }) {
  const { t } = useTranslation();
  const rows = violations.map((violation, index) => ({ ...violation, key: index }));
  return (
    <Table
      size="small"
      rowKey="key"
      dataSource={rows}
      pagination={rows.length > 10 ? { pageSize: 10, showSizeChanger: false } : false}
      locale={{ emptyText: t('ledger.noViolations') }}
      data-testid="violations"
      columns={[
        {
          title: t('ledger.violationCheck'),
          dataIndex: 'check',
          width: 280,
          render: (check: LedgerViolation['check']) => t(`ledger.checks.${check}`),
        },
        {
          title: t('ledger.violationDetail'),
          render: (_, row) => (
            <Tooltip title={`${t('ledger.verifierLine')}: ${row.text}`} placement="topLeft">
              <span data-testid="violation">
                {'more' in row.values
                  ? t('ledger.violation.more', { more: row.values.more })
                  : t(`ledger.violation.${row.check as FoundBy}`, row.values)}
              </span>
            </Tooltip>
          ),
        },
      ]}
    />
  );
}
