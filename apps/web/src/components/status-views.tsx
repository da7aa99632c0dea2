/**
 * The states every list and balance shares, so each screen shows them the same way: a number kept
 * left-to-right inside right-to-left text, the shapes that stand in while data loads, the one
 * empty state, the one error state with its retry, and pull-to-refresh.
 */
import { Button, PullToRefresh, Skeleton } from 'antd-mobile';
import { FileOutline, InformationCircleOutline } from 'antd-mobile-icons';
import { useTranslation } from '../i18n/react';

/**
 * A number, amount, price, percentage, code, address or range as one left-to-right island: in
 * Arabic the sign stays before the digits ("-2,898.13", "+0.04%") and a range reads low to high.
 */
export function Num({
  children,
  className,
  testId,
}: {
  children: React.ReactNode;
  className?: string;
  testId?: string;
}) {
  return (
    <bdi dir="ltr" className={className ? `num ${className}` : 'num'} data-testid={testId}>
      {children}
    </bdi>
  );
}

/** Grey bars in the shape of `rows` list rows, while the first page loads. */
export function ListSkeleton({ rows = 4, testId }: { rows?: number; testId?: string }) {
  return (
    <div className="list-skeleton" data-testid={testId ?? 'list-skeleton'} aria-busy="true">
      {Array.from({ length: rows }, (_, index) => (
        <div className="list-skeleton-row" key={index}>
          <Skeleton animated className="list-skeleton-title" />
          <Skeleton animated className="list-skeleton-line" />
        </div>
      ))}
    </div>
  );
}

/** A bar the size of an amount, while the balance loads. */
export function ValueSkeleton({ testId }: { testId?: string }) {
  return (
    <Skeleton
      animated
      className="value-skeleton"
      data-testid={testId ?? 'value-skeleton'}
      aria-busy="true"
    />
  );
}

/** What shows instead of records: a title, what to do about it, and a button to do it. */
export interface EmptyStateProps {
  testId?: string;
  title: string;
  text?: string;
  /** Make the first one, or show every record again. */
  action?: { label: string; onClick: () => void };
  /** A smaller state inside a card or a tab. */
  compact?: boolean;
}

export function EmptyState({ testId, title, text, action, compact }: EmptyStateProps) {
  return (
    <div
      className={compact ? 'empty-state stack compact' : 'empty-state stack'}
      data-testid={testId ?? 'empty-state'}
    >
      <FileOutline fontSize={compact ? 32 : 48} color="var(--text-muted)" aria-hidden="true" />
      <strong>{title}</strong>
      {text && <span className="muted">{text}</span>}
      {action && (
        <Button size="small" color="primary" fill="outline" onClick={action.onClick}>
          {action.label}
        </Button>
      )}
    </div>
  );
}

/** A load that failed: what happened, and a retry. */
export function ErrorState({
  onRetry,
  testId,
  compact,
}: {
  onRetry: () => void;
  testId?: string;
  compact?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <div
      className={
        compact ? 'empty-state error-state stack compact' : 'empty-state error-state stack'
      }
      data-testid={testId ?? 'error-state'}
      role="alert"
    >
      <InformationCircleOutline
        fontSize={compact ? 32 : 48}
        color="var(--text-muted)"
        aria-hidden="true"
      />
      <strong>{t('common_loadFailed')}</strong>
      <span className="muted">{t('common_loadFailedText')}</span>
      <Button size="small" color="primary" fill="outline" onClick={onRetry}>
        {t('common_retry')}
      </Button>
    </div>
  );
}

/** Pull down to load again: `onRefresh` resolves when the fresh data is in. */
export function Refreshable({
  onRefresh,
  children,
}: {
  onRefresh: () => Promise<unknown>;
  children: React.ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <PullToRefresh
      onRefresh={async () => {
        await onRefresh();
      }}
      pullingText={t('common_pullToRefresh')}
      canReleaseText={t('common_releaseToRefresh')}
      refreshingText={t('common_refreshing')}
      completeText={t('common_refreshed')}
    >
      {children}
    </PullToRefresh>
  );
}

/** Where a list's rows stand: arrived, failed (with nothing to show), and how to ask again. */
export interface ListState {
  loaded: boolean;
  failed?: boolean;
  retry?: () => void;
}

/** The state of a query of rows: loaded once it succeeded, failed when it has no data to show. */
export function listStateOf(query: {
  isSuccess: boolean;
  isError: boolean;
  data: unknown;
  refetch: () => unknown;
}): ListState {
  return {
    loaded: query.isSuccess,
    failed: query.isError && !query.data,
    retry: () => void query.refetch(),
  };
}

/**
 * What a list shows in place of its rows: grey rows until it has loaded, the error state when it
 * failed, the empty state when it has none; nothing once it has rows.
 */
export function ListStatus({
  list: { loaded, failed, retry },
  count,
  empty,
  skeletonRows = 2,
}: {
  list: ListState;
  count: number;
  empty: EmptyStateProps;
  skeletonRows?: number;
}) {
  if (count > 0) return null;
  if (failed && retry) return <ErrorState compact onRetry={retry} />;
  if (!loaded) return <ListSkeleton rows={skeletonRows} />;
  return <EmptyState compact {...empty} />;
}
