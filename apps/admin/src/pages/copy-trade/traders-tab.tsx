/**
 * Lead traders: each with their terms, their statistics as computed from their own closed live
 * positions (read only: no console call writes a statistic), followers now and ever, their
 * followers' P&L and the budgets under copy. An operator caps a trader's followers (the lower of
 * the trader's own limit and the cap applies; present followers stay), and suspends a trader with
 * the reason followers read (no new follows or copies; open copies kept and still closed with the
 * trader's closes) or resumes one.
 */
import { useState } from 'react';
import { App, Button, Form, InputNumber, Modal, Space, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  COPY_LIMITS,
  TRADER_STATUS,
  consoleCopyTradingApi,
  traderCapBody,
  traderStatusBody,
  type ConsoleTrader,
  type TraderWindowStatsRow,
} from '@bourse/shared';
import { api } from '../../api';
import { Muted, ToolbarRow, UserCell } from '../../components/cells';
import { FailureAlert } from '../../components/failure-alert';
import { AccountSearch, RefreshButton } from '../../components/list-controls';
import { ReasonDialog } from '../../components/reason-dialog';
import { checkWith, clearChangedErrors, showOnField } from '../../lib/form';
import { formatAmount, formatTime } from '../../lib/format';
import {
  COPY_KEY,
  CopyTable,
  Pnl,
  StatusFilter,
  TraderStatusTag,
  percentOf,
  useCopyList,
  useDuration,
} from './parts';

/** Statistics move after each close: the list reads itself this often while shown. */
const REFRESH_MS = 10_000;
/** The reason's bound in traderStatusBody (checked before sending). */
const REASON_MAX = 500;
const PERIODS = ['7', '30', '90', 'all'] as const;

type Opened = { kind: 'cap' | 'suspend' | 'resume'; trader: ConsoleTrader };

const windowOf = (row: ConsoleTrader, period: string): TraderWindowStatsRow | undefined =>
  row.windows.find((window) => window.period === period);

const nameOf = (row: ConsoleTrader) => row.nickName || row.userAccount;

/** The console's cap on a trader's followers, or none. */
function CapDialog({ trader, onClose }: { trader: ConsoleTrader; onClose(): void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<{ maxFollowersCap?: number | null }>();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string>();

  async function submit() {
    setFailure(undefined);
    form.setFields([{ name: 'maxFollowersCap', errors: [] }]);
    const cap = form.getFieldValue('maxFollowersCap') as number | null | undefined;
    const body = checkWith(form, traderCapBody, {
      traderId: trader.traderId,
      maxFollowersCap: cap ?? undefined,
    });
    if (!body) return;
    setBusy(true);
    try {
      await api.call(consoleCopyTradingApi.setFollowersCap, body);
      void message.success(t('copyTrade.traders.capDialog.saved'));
      await queryClient.invalidateQueries({ queryKey: [COPY_KEY] });
      onClose();
    } catch (error) {
      setFailure(showOnField(form, error, ['maxFollowersCap']));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal
      open
      title={t('copyTrade.traders.capDialog.title', { account: nameOf(trader) })}
      okText={t('copyTrade.traders.capDialog.ok')}
      okButtonProps={{ loading: busy, 'data-testid': 'copy-cap-confirm' }}
      cancelText={t('common.cancel')}
      onOk={() => void submit()}
      onCancel={onClose}
      destroyOnHidden
      width={520}
    >
      <FailureAlert failure={failure} testId="copy-cap-failure" />
      <Form
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={{ maxFollowersCap: trader.maxFollowersCap }}
        onValuesChange={(changed: Record<string, unknown>) => clearChangedErrors(form, changed)}
      >
        <Form.Item
          name="maxFollowersCap"
          label={t('copyTrade.traders.capDialog.label')}
          extra={
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {t('copyTrade.traders.capDialog.help', { limit: trader.maxFollowers })}
            </Typography.Text>
          }
        >
          <InputNumber<number>
            min={1}
            max={COPY_LIMITS.maxFollowersMax}
            precision={0}
            style={{ width: 200 }}
            autoFocus
            data-testid="copy-cap-input"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}

export function TradersTab() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const duration = useDuration();
  const [status, setStatus] = useState<number>();
  const [userAccount, setUserAccount] = useState<string>();
  const [opened, setOpened] = useState<Opened>();
  const { list, paging, filterWith } = useCopyList(
    'traders',
    { status, userAccount },
    (input) => api.call(consoleCopyTradingApi.traders, input),
    REFRESH_MS,
  );

  const columns = [
    {
      title: t('copyTrade.traders.field.trader'),
      key: 'trader',
      render: (_: unknown, row: ConsoleTrader) => (
        <Space direction="vertical" size={2} data-testid={`copy-trader-${row.traderId}`}>
          <UserCell account={row.userAccount} id={row.traderId} />
          {row.nickName && row.nickName !== row.userAccount && <Muted small>{row.nickName}</Muted>}
          <TraderStatusTag status={row.status} testId={`copy-trader-status-${row.traderId}`} />
          {row.suspendedReason && row.status === TRADER_STATUS.suspended && (
            <div style={{ maxWidth: 240 }}>
              <Muted small>
                <span data-testid={`copy-trader-reason-${row.traderId}`}>
                  {row.suspendedReason}
                </span>
              </Muted>
            </div>
          )}
        </Space>
      ),
    },
    {
      title: t('copyTrade.traders.field.return'),
      key: 'return',
      render: (_: unknown, row: ConsoleTrader) => (
        <Space direction="vertical" size={2}>
          <div
            style={{
              display: 'grid',
              gridTemplateColumns: 'auto auto auto',
              columnGap: 10,
              whiteSpace: 'nowrap',
              lineHeight: 1.5,
              fontSize: 12,
            }}
            data-testid={`copy-trader-return-${row.traderId}`}
          >
            {PERIODS.map((period) => {
              const window = windowOf(row, period);
              return [
                <Muted small key={`${period}-label`}>
                  {t(`copyTrade.traders.period.${period}`)}
                </Muted>,
                <span key={`${period}-roi`} style={{ textAlign: 'end' }}>
                  {window ? percentOf(window.roi) : '–'}
                </span>,
                <span key={`${period}-pnl`} style={{ textAlign: 'end' }}>
                  {window ? <Pnl value={window.pnl} /> : '–'}
                </span>,
              ];
            })}
          </div>
          {row.statsAt && (
            <Muted small>
              <span data-testid={`copy-trader-stats-at-${row.traderId}`}>
                {t('copyTrade.traders.statsAt', { time: formatTime(row.statsAt) })}
              </span>
            </Muted>
          )}
        </Space>
      ),
    },
    {
      title: t('copyTrade.traders.field.record'),
      key: 'record',
      render: (_: unknown, row: ConsoleTrader) => {
        const all = windowOf(row, 'all');
        if (!all || all.trades === 0)
          return (
            <span data-testid={`copy-trader-trades-${row.traderId}`}>
              <Muted small>{t('copyTrade.traders.noStats')}</Muted>
            </span>
          );
        return (
          <Space direction="vertical" size={0} style={{ whiteSpace: 'nowrap' }}>
            <span data-testid={`copy-trader-trades-${row.traderId}`}>
              {t('copyTrade.traders.tradesLine', { count: all.trades })}
            </span>
            <Muted small>
              {t('copyTrade.traders.winRateLine', { rate: percentOf(all.winRate) })}
            </Muted>
            <Muted small>
              {t('copyTrade.traders.drawdownLine', { rate: percentOf(all.maxDrawdown) })}
            </Muted>
            <Muted small>
              {t('copyTrade.traders.holdLine', { time: duration(all.avgHoldSeconds) })}
            </Muted>
          </Space>
        );
      },
    },
    {
      title: t('copyTrade.traders.field.followers'),
      key: 'followers',
      render: (_: unknown, row: ConsoleTrader) => (
        <Space direction="vertical" size={0} style={{ whiteSpace: 'nowrap' }}>
          <span data-testid={`copy-trader-followers-${row.traderId}`}>
            {t('copyTrade.traders.followersLine', {
              now: row.followers,
              total: row.followersTotal,
            })}
          </span>
          <Muted small>{t('copyTrade.traders.limitLine', { limit: row.maxFollowers })}</Muted>
          <Muted small>
            <span data-testid={`copy-trader-cap-${row.traderId}`}>
              {row.maxFollowersCap === null
                ? t('copyTrade.traders.noCap')
                : t('copyTrade.traders.capLine', { cap: row.maxFollowersCap })}
            </span>
          </Muted>
          <Muted small>
            {t('copyTrade.traders.copyRangeLine', {
              min: row.minCopyAmount,
              max: row.maxCopyAmount ?? '∞',
            })}
          </Muted>
        </Space>
      ),
    },
    {
      title: t('copyTrade.traders.field.assets'),
      key: 'assets',
      align: 'end' as const,
      render: (_: unknown, row: ConsoleTrader) => (
        <Space direction="vertical" size={0} style={{ whiteSpace: 'nowrap' }}>
          <span data-testid={`copy-trader-assets-${row.traderId}`}>
            {formatAmount(row.assetsUnderCopy, row.currency)}
          </span>
          <Muted small>{t('copyTrade.traders.followersPnl', { amount: row.followersPnl })}</Muted>
          <Muted small>
            <span data-testid={`copy-trader-rate-${row.traderId}`}>
              {t('copyTrade.traders.shareLine', { rate: percentOf(row.profitShareRate) })}
            </span>
          </Muted>
          <Muted small>{t('copyTrade.traders.sharePaidLine', { amount: row.sharePaid })}</Muted>
        </Space>
      ),
    },
    {
      title: '',
      key: 'actions',
      fixed: 'right' as const,
      render: (_: unknown, row: ConsoleTrader) => (
        <Space direction="vertical" size={4}>
          <Button
            size="small"
            onClick={() => setOpened({ kind: 'cap', trader: row })}
            data-testid={`copy-trader-cap-edit-${row.traderId}`}
          >
            {t('copyTrade.traders.setCap')}
          </Button>
          {row.status === TRADER_STATUS.active ? (
            <Button
              size="small"
              danger
              onClick={() => setOpened({ kind: 'suspend', trader: row })}
              data-testid={`copy-trader-suspend-${row.traderId}`}
            >
              {t('copyTrade.traders.suspend')}
            </Button>
          ) : (
            <Button
              size="small"
              type="primary"
              ghost
              onClick={() => setOpened({ kind: 'resume', trader: row })}
              data-testid={`copy-trader-resume-${row.traderId}`}
            >
              {t('copyTrade.traders.resume')}
            </Button>
          )}
        </Space>
      ),
    },
  ];

  const statusChange = opened?.kind === 'suspend' || opened?.kind === 'resume' ? opened : undefined;
  const dialog = statusChange?.kind === 'resume' ? 'resumeDialog' : 'suspendDialog';
  return (
    <div data-testid="copy-traders">
      <ToolbarRow>
        <Space wrap>
          <StatusFilter
            statuses={TRADER_STATUS}
            label={(value) => t(`copyTrade.traders.status.${String(value) as '1'}`)}
            placeholder={t('copyTrade.traders.allStatuses')}
            width={160}
            value={status}
            onChange={filterWith(setStatus)}
            testId="copy-traders-status"
          />
          <AccountSearch
            placeholder={t('copyTrade.traders.search')}
            onSearch={filterWith(setUserAccount)}
            testId="copy-traders-search"
          />
          <RefreshButton list={list} />
        </Space>
      </ToolbarRow>
      <CopyTable<ConsoleTrader>
        help={t('copyTrade.traders.help')}
        testId="copy-traders-table"
        rowKey="traderId"
        columns={columns}
        paging={paging}
        emptyText={t('copyTrade.traders.empty')}
      />
      {opened?.kind === 'cap' && (
        <CapDialog trader={opened.trader} onClose={() => setOpened(undefined)} />
      )}
      <ReasonDialog
        open={Boolean(statusChange)}
        title={t(`copyTrade.traders.${dialog}.title`, {
          account: statusChange ? nameOf(statusChange.trader) : '',
        })}
        okText={t(`copyTrade.traders.${dialog}.ok`)}
        testId={`copy-trader-${statusChange?.kind ?? 'suspend'}`}
        reasonTestId="copy-trader-status-reason"
        danger={statusChange?.kind !== 'resume'}
        schema={traderStatusBody}
        body={(reason) => ({ traderId: statusChange?.trader.traderId, reason })}
        onSubmit={async (body) => {
          const resume = statusChange?.kind === 'resume';
          await api.call(
            resume ? consoleCopyTradingApi.resumeTrader : consoleCopyTradingApi.suspendTrader,
            body,
          );
          void message.success(t(`copyTrade.traders.${dialog}.done`));
          await queryClient.invalidateQueries({ queryKey: [COPY_KEY] });
        }}
        onClose={() => setOpened(undefined)}
        label={t(`copyTrade.traders.${dialog}.reason`)}
        help={t(`copyTrade.traders.${dialog}.help`)}
        maxLength={REASON_MAX}
        placeholder={t(`copyTrade.traders.${dialog}.placeholder`)}
      >
        <Typography.Paragraph
          type={statusChange?.kind === 'resume' ? 'secondary' : 'warning'}
          data-testid="copy-trader-status-effects"
        >
          {t(`copyTrade.traders.${dialog}.effects`)}
        </Typography.Paragraph>
      </ReasonDialog>
    </div>
  );
}
