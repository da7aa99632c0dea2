/**
 * Pieces the card and address screens share: loading, the empty state, the list of bound items
 * and the delete confirmation.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, DotLoading } from 'antd-mobile';
import { BankcardOutline, PayCircleOutline } from 'antd-mobile-icons';
import { useTranslation } from '../../i18n/react';
import { showToast } from '../../api';
import { isSignedIn } from '../../api/session';
import { SignedInScreen } from '../../components/signed-in-screen';
import { translate } from '../../i18n';
import { Dialog } from '../../lib/antd-render';
import { navigateTo } from '../../lib/navigation';
import type { BoundItems } from './api';
import './payment-methods.css';

export function Loading() {
  return (
    <div className="pm-empty">
      <DotLoading color="currentColor" />
    </div>
  );
}

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
      <span className="pm-empty-icon icon-tile" aria-hidden="true">
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

/** The screens of bound items: title, test ids' stem, icon and the screen adding one. */
const SCREENS = {
  bankCard: {
    title: 'area_bankCards',
    testId: 'bank-cards',
    Icon: BankcardOutline,
    add: 'bindBankCard',
  },
  address: { title: 'area_wallets', testId: 'wallets', Icon: PayCircleOutline, add: 'bindAddress' },
} as const;

/**
 * A screen of the user's bound items (bank cards, wallet addresses): loading, the way to add the
 * first, the items (`children`, given a way to delete one after a confirmation), and while under
 * the limit the way to add another, with how many there are of how many. Its texts are the
 * `<kind>_…` translations (empty, add, limit, delete, deleteConfirm, deleted).
 */
export function BoundItemsScreen<Row extends { id: number }>({
  kind,
  items: { queryKey, fetchRows, deleteRow, max },
  confirmNames,
  children,
}: {
  kind: keyof typeof SCREENS;
  items: BoundItems<Row>;
  /** What the delete confirmation (`<kind>_deleteConfirm`) names of an item. */
  confirmNames: (row: Row) => (string | number)[];
  children: (rows: Row[], remove: (row: Row) => void) => React.ReactNode;
}) {
  const { t } = useTranslation();
  const removal = useRemoval(queryKey);
  const query = useQuery({ queryKey, queryFn: fetchRows, enabled: isSignedIn() });
  const rows = query.data ?? [];
  const { title, testId, Icon, add } = SCREENS[kind];
  const remove = (row: Row) =>
    void removal({
      question: translate(`${kind}_deleteConfirm`, confirmNames(row)),
      confirm: t(`${kind}_delete`),
      done: t(`${kind}_deleted`),
      remove: () => deleteRow(row.id),
    });
  return (
    <SignedInScreen testId={`${testId}-page`} title={t(title)}>
      <div className="page-body stack">
        {query.isPending && <Loading />}
        {query.isSuccess && rows.length === 0 && (
          <EmptyState
            icon={<Icon />}
            text={t(`${kind}_empty`)}
            action={t(`${kind}_add`)}
            onAction={() => navigateTo(add)}
            testId={`${testId}-empty`}
          />
        )}
        {children(rows, remove)}
        {rows.length > 0 && (
          <>
            {query.isSuccess && rows.length < max && (
              <Button
                block
                color="primary"
                fill="outline"
                onClick={() => navigateTo(add)}
                data-testid={`${testId}-add`}
              >
                {t(`${kind}_add`)}
              </Button>
            )}
            <p className="pm-note">{translate(`${kind}_limit`, [rows.length, max])}</p>
          </>
        )}
      </div>
    </SignedInScreen>
  );
}

/**
 * A bound card or address: its icon, title and subtitle, what it holds (`children`), and the way
 * to delete it: beside its other `actions` under it when it has some, else in its head.
 */
export function BoundItem({
  kind,
  testId,
  className,
  title,
  subtitle,
  actions,
  onDelete,
  children,
}: {
  kind: keyof typeof SCREENS;
  /** The item's; its delete button's is `${testId}-delete`. */
  testId: string;
  className?: string;
  title: React.ReactNode;
  subtitle?: string | null;
  actions?: React.ReactNode;
  onDelete: () => void;
  children: React.ReactNode;
}) {
  const { t } = useTranslation();
  const { Icon } = SCREENS[kind];
  const deleteButton = (
    <Button
      size="small"
      color="danger"
      fill="outline"
      onClick={onDelete}
      data-testid={`${testId}-delete`}
    >
      {t(`${kind}_delete`)}
    </Button>
  );
  return (
    <article
      className={className ? `pm-item stack ${className}` : 'pm-item stack'}
      data-testid={testId}
    >
      <div className="pm-item-head">
        <span className="pm-item-icon icon-tile" aria-hidden="true">
          <Icon />
        </span>
        <span className="pm-item-title">
          {title}
          {subtitle && <span className="muted ellipsis">{subtitle}</span>}
        </span>
        {!actions && deleteButton}
      </div>
      {children}
      {actions && (
        <div className="pm-actions">
          {actions}
          {deleteButton}
        </div>
      )}
    </article>
  );
}

/** Groups a masked or whole card number by four, as printed on cards. */
export function groupCardNumber(cardNumber: string): string {
  return cardNumber.replace(/(.{4})(?=.)/g, '$1 ');
}
