/**
 * Applications to lead: pending first (the queue, read again every few seconds while shown), then
 * the reviewed ones, newest first. Each shows the applicant, their closed live trades when they
 * applied and now against the track record the settings ask, and their identity level now. An
 * operator approves (the user becomes a lead trader) or rejects with the reason the user reads.
 */
import { useState } from 'react';
import { App, Button, Popconfirm, Segmented, Space, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  APPLICATION_STATUS,
  applicationRejectBody,
  consoleCopyTradingApi,
  type ConsoleApplication,
} from '@bourse/shared';
import { api } from '../../api';
import { Muted, TimeCell, ToolbarRow, UserCell } from '../../components/cells';
import { AccountSearch, RefreshButton } from '../../components/list-controls';
import { ReasonDialog } from '../../components/reason-dialog';
import {
  ApplicationStatusTag,
  COPY_KEY,
  CopyTable,
  LevelTag,
  useCopyAction,
  useCopyList,
} from './parts';

/** Applications wait for a decision: the list reads itself this often while shown. */
const QUEUE_REFRESH_MS = 5_000;
/** The reason's bound in applicationRejectBody (checked before sending). */
const REASON_MAX = 500;

export function ApplicationsTab({ minClosedTrades }: { minClosedTrades?: number }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const act = useCopyAction();
  const [status, setStatus] = useState<number | undefined>(APPLICATION_STATUS.pending);
  const [userAccount, setUserAccount] = useState<string>();
  const [rejecting, setRejecting] = useState<ConsoleApplication>();
  const { list, paging, restart, filterWith } = useCopyList(
    'applications',
    { status, userAccount },
    (input) => api.call(consoleCopyTradingApi.applications, input),
    QUEUE_REFRESH_MS,
  );

  const columns = [
    {
      title: t('copyTrade.applications.field.user'),
      key: 'user',
      render: (_: unknown, row: ConsoleApplication) => (
        <Space direction="vertical" size={0} data-testid={`copy-application-${row.id}`}>
          <UserCell account={row.userAccount} id={row.userId} />
          {row.nickName && <Muted small>{row.nickName}</Muted>}
        </Space>
      ),
    },
    {
      title: t('copyTrade.applications.field.closedTrades'),
      key: 'closedTrades',
      align: 'end' as const,
      render: (_: unknown, row: ConsoleApplication) => (
        <Space direction="vertical" size={0} style={{ whiteSpace: 'nowrap' }}>
          <Typography.Text strong data-testid={`copy-application-trades-${row.id}`}>
            {row.closedTradesNow}
          </Typography.Text>
          <Muted small>{t('copyTrade.applications.closedLine', { count: row.closedTrades })}</Muted>
          {minClosedTrades !== undefined && (
            <Muted small>
              {t('copyTrade.applications.requiredLine', { count: minClosedTrades })}
            </Muted>
          )}
        </Space>
      ),
    },
    {
      title: t('copyTrade.applications.field.level'),
      key: 'level',
      render: (_: unknown, row: ConsoleApplication) => (
        <LevelTag level={row.authLevel} testId={`copy-application-level-${row.id}`} />
      ),
    },
    {
      title: t('copyTrade.applications.field.applied'),
      key: 'applied',
      render: (_: unknown, row: ConsoleApplication) => <TimeCell iso={row.createTime} />,
    },
    {
      title: t('copyTrade.applications.field.status'),
      key: 'status',
      render: (_: unknown, row: ConsoleApplication) => (
        <Space direction="vertical" size={2} style={{ maxWidth: 260 }}>
          <ApplicationStatusTag status={row.status} testId={`copy-application-status-${row.id}`} />
          {row.reason && (
            <Muted small>
              <span data-testid={`copy-application-reason-${row.id}`}>{row.reason}</span>
            </Muted>
          )}
          {row.reviewedBy && (
            <Muted small>
              {t('copyTrade.applications.reviewedBy', { operator: row.reviewedBy })}
            </Muted>
          )}
        </Space>
      ),
    },
    {
      title: '',
      key: 'actions',
      render: (_: unknown, row: ConsoleApplication) =>
        row.status === APPLICATION_STATUS.pending ? (
          <Space>
            <Popconfirm
              title={t('copyTrade.applications.approveConfirm', { account: row.userAccount })}
              okText={t('copyTrade.applications.approve')}
              okButtonProps={{ 'data-testid': `copy-application-approve-confirm-${row.id}` }}
              cancelText={t('common.cancel')}
              onConfirm={() =>
                act(
                  () => api.call(consoleCopyTradingApi.approveApplication, { id: row.id }),
                  t('copyTrade.applications.approved'),
                )
              }
            >
              <Button
                size="small"
                type="primary"
                data-testid={`copy-application-approve-${row.id}`}
              >
                {t('copyTrade.applications.approve')}
              </Button>
            </Popconfirm>
            <Button
              size="small"
              danger
              onClick={() => setRejecting(row)}
              data-testid={`copy-application-reject-${row.id}`}
            >
              {t('copyTrade.applications.reject')}
            </Button>
          </Space>
        ) : null,
    },
  ];

  return (
    <div data-testid="copy-applications">
      <ToolbarRow>
        <Space wrap>
          <Segmented
            value={status ?? 'all'}
            onChange={(value) => {
              setStatus(value === 'all' ? undefined : (value as number));
              restart();
            }}
            options={[
              ...Object.values(APPLICATION_STATUS).map((value) => ({
                value,
                label: (
                  <span data-testid={`copy-applications-show-${value}`}>
                    {t(`copyTrade.applications.status.${String(value) as '0'}`)}
                  </span>
                ),
              })),
              {
                value: 'all',
                label: (
                  <span data-testid="copy-applications-show-all">
                    {t('copyTrade.applications.allStatuses')}
                  </span>
                ),
              },
            ]}
          />
          <AccountSearch
            placeholder={t('copyTrade.traders.search')}
            onSearch={filterWith(setUserAccount)}
          />
          <RefreshButton list={list} />
        </Space>
      </ToolbarRow>
      <CopyTable<ConsoleApplication>
        help={t('copyTrade.applications.help')}
        testId="copy-applications-table"
        columns={columns}
        paging={paging}
        emptyText={t('copyTrade.applications.empty')}
      />
      <ReasonDialog
        open={Boolean(rejecting)}
        title={t('copyTrade.applications.rejectTitle', { account: rejecting?.userAccount ?? '' })}
        okText={t('copyTrade.applications.rejectOk')}
        testId="copy-application-reject"
        reasonTestId="copy-application-reject-reason"
        schema={applicationRejectBody}
        body={(reason) => ({ id: rejecting?.id, reason })}
        onSubmit={async (body) => {
          await api.call(consoleCopyTradingApi.rejectApplication, body);
          void message.success(t('copyTrade.applications.rejected'));
          await queryClient.invalidateQueries({ queryKey: [COPY_KEY] });
        }}
        onClose={() => setRejecting(undefined)}
        label={t('copyTrade.applications.reason')}
        help={t('copyTrade.applications.reasonHelp')}
        maxLength={REASON_MAX}
        placeholder={t('copyTrade.applications.reasonPlaceholder')}
      />
    </div>
  );
}
