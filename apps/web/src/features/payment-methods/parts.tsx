/** Pieces the card and address screens share: the empty state and the delete confirmation. */
import { useQueryClient } from '@tanstack/react-query';
import { Button } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { showToast } from '../../api';
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
export interface Removal {
  /** The question, naming what is deleted. */
  question: string;
  /** The confirm button's text. */
  confirm: string;
  /** The toast once deleted. */
  done: string;
  remove: () => Promise<unknown>;
}

/**
 * Deletes a card or an address after a confirmation; the list is read again whatever the
 * outcome (a refusal has been told by the request client).
 */
export function useRemoval(queryKey: readonly unknown[]): (removal: Removal) => Promise<void> {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  return async ({ question, confirm, done, remove }) => {
    const confirmed = await Dialog.confirm({
      content: question,
      confirmText: <span style={{ color: 'var(--danger)' }}>{confirm}</span>,
      cancelText: t('common_cancel'),
    });
    if (!confirmed) return;
    try {
      await remove();
    } catch {
      return;
    } finally {
      await queryClient.invalidateQueries({ queryKey });
    }
    showToast(done);
  };
}

/** Groups a masked or whole card number by four, as printed on cards. */
export function groupCardNumber(cardNumber: string): string {
  return cardNumber.replace(/(.{4})(?=.)/g, '$1 ');
}
