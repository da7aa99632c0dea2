/** A loan's state as a tag in the console: overdue (with its days) in place of active once past due. */
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ConsoleLoanOrder } from '@bourse/shared';

const STATUS_COLOR: Record<string, string> = {
  0: 'processing',
  1: 'blue',
  2: 'success',
  3: 'error',
  overdue: 'red',
};

/** A loan's state as a tag: overdue in place of active once past its due date. */
export function LoanStatus({ loan }: { loan: ConsoleLoanOrder }) {
  const { t } = useTranslation();
  const name = loan.overdue ? 'overdue' : String(loan.status);
  return (
    <Tag color={STATUS_COLOR[name]} data-testid="loan-status">
      {t(`loans.status.${name as '0'}`)}
      {loan.overdue ? ` · ${loan.overdueDays}` : ''}
    </Tag>
  );
}
