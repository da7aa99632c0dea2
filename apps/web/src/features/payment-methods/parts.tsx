/** Pieces the card and address screens share: the empty state and the delete confirmation. */
import { Button } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../lib/antd-render';
import './payment-methods.css';

export function EmptyState({
  icon,
  text,
  action,
  onAction,
  testId,
}: {
  icon: React.ReactNode;
  text: string;
  action?: string;
  onAction?: () => void;
  testId?: string;
}) {
  return (
    <div className="pm-empty" data-testid={testId}>
      <span className="pm-empty-icon" aria-hidden="true">
        {icon}
      </span>
      <span>{text}</span>
      {action && onAction && (
        <Button color="primary" onClick={onAction}>
          {action}
        </Button>
      )}
    </div>
  );
}

/** Asks before deleting; resolves true when the user confirmed. */
export function useConfirmDelete(): (content: string, confirm: string) => Promise<boolean> {
  const { t } = useTranslation();
  return (content: string, confirm: string) =>
    Dialog.confirm({
      content,
      confirmText: <span style={{ color: 'var(--danger)' }}>{confirm}</span>,
      cancelText: t('common_cancel'),
    });
}

/** Groups a masked or whole card number by four, as printed on cards. */
export function groupCardNumber(cardNumber: string): string {
  return cardNumber.replace(/(.{4})(?=.)/g, '$1 ');
}
