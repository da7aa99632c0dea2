/**
 * Relations: each follower–trader link, newest first, of a trader, a follower or a status: its
 * book, mode and limits, its open copies and margin in use, the cumulative realized net P&L of
 * its copies against its high-water mark, what it has paid the trader and what it still owes.
 * Read only: relations are the followers' own.
 */
import { useState } from 'react';
import { InputNumber, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  COPY_MODE,
  RELATION_STATUS,
  consoleCopyTradingApi,
  isPositive,
  type ConsoleRelation,
} from '@bourse/shared';
import { api } from '../../api';
import { Muted, TimeCell, ToolbarRow, UserCell } from '../../components/cells';
import { AccountSearch, RefreshButton } from '../../components/list-controls';
import { formatAmount, formatTime } from '../../lib/format';
import {
  BookTag,
  CopyTable,
  Pnl,
  RelationStatusTag,
  StatusFilter,
  percentOf,
  useCopyList,
} from './parts';

/** Cumulative P&L moves with each copy closed: the list reads itself this often while shown. */
const REFRESH_MS = 10_000;

export function RelationsTab({ testId = 'copy-relations' }: { testId?: string }) {
  const { t } = useTranslation();
  const [status, setStatus] = useState<number>();
  const [traderId, setTraderId] = useState<number | null>(null);
  const [userAccount, setUserAccount] = useState<string>();
  const { list, paging, filterWith } = useCopyList(
    'relations',
    { status, traderId: traderId ?? undefined, userAccount },
    (input) => api.call(consoleCopyTradingApi.relations, input),
    REFRESH_MS,
  );

  const columns = [
    {
      title: t('copyTrade.relations.field.follower'),
      key: 'follower',
      render: (_: unknown, row: ConsoleRelation) => (
        <Space direction="vertical" size={0} data-testid={`copy-relation-${row.id}`}>
          <UserCell account={row.followerAccount} id={row.followerId} />
          <BookTag book={row.book} />
        </Space>
      ),
    },
    {
      title: t('copyTrade.relations.field.trader'),
      key: 'trader',
      render: (_: unknown, row: ConsoleRelation) => (
        <Space direction="vertical" size={0} style={{ whiteSpace: 'nowrap' }}>
          <span>{row.traderName}</span>
          <Muted small>{t('review.userIdValue', { id: row.traderId })}</Muted>
          <Muted small>
            {t('copyTrade.relations.rateLine', { rate: percentOf(row.profitShareRate) })}
          </Muted>
        </Space>
      ),
    },
    {
      title: t('copyTrade.relations.field.mode'),
      key: 'mode',
      render: (_: unknown, row: ConsoleRelation) => (
        <Space direction="vertical" size={0} style={{ whiteSpace: 'nowrap' }}>
          <span data-testid={`copy-relation-mode-${row.id}`}>
            {t(`copyTrade.relations.mode.${String(row.mode) as '1'}`)}
          </span>
          <Muted small>
            {row.mode === COPY_MODE.fixed
              ? t('copyTrade.relations.modeLine.1', {
                  amount: formatAmount(row.amount ?? '0', row.currency),
                })
              : t('copyTrade.relations.modeLine.2', { ratio: row.ratio ?? '0' })}
          </Muted>
        </Space>
      ),
    },
    {
      title: t('copyTrade.relations.field.limits'),
      key: 'limits',
      render: (_: unknown, row: ConsoleRelation) => (
        <Space direction="vertical" size={0} style={{ whiteSpace: 'nowrap' }}>
          <span>
            {t('copyTrade.relations.budgetLine', {
              amount: formatAmount(row.budget, row.currency),
            })}
          </span>
          <Muted small>
            {t('copyTrade.relations.inUseLine', {
              count: row.openCopies,
              max: row.maxOpen,
              amount: row.marginInUse,
            })}
          </Muted>
          {(row.tpRate !== null || row.slRate !== null) && (
            <Muted small>
              {t('copyTrade.relations.tpSlLine', {
                tp: row.tpRate === null ? '–' : percentOf(row.tpRate),
                sl: row.slRate === null ? '–' : percentOf(row.slRate),
              })}
            </Muted>
          )}
        </Space>
      ),
    },
    {
      title: t('copyTrade.relations.field.cumPnl'),
      key: 'cumPnl',
      align: 'end' as const,
      render: (_: unknown, row: ConsoleRelation) => (
        <Space direction="vertical" size={0} style={{ whiteSpace: 'nowrap' }}>
          <Pnl value={row.cumPnl} currency={row.currency} testId={`copy-relation-pnl-${row.id}`} />
          <Muted small>
            <span data-testid={`copy-relation-hwm-${row.id}`}>
              {t('copyTrade.relations.hwmLine', { amount: row.hwm })}
            </span>
          </Muted>
        </Space>
      ),
    },
    {
      title: t('copyTrade.relations.field.paid'),
      key: 'paid',
      align: 'end' as const,
      render: (_: unknown, row: ConsoleRelation) => (
        <Space direction="vertical" size={0} style={{ whiteSpace: 'nowrap' }}>
          <span data-testid={`copy-relation-paid-${row.id}`}>
            {formatAmount(row.sharePaid, row.currency)}
          </span>
          {isPositive(row.owed) && (
            <Typography.Text type="danger" style={{ fontSize: 12 }}>
              {t('copyTrade.relations.owedLine', { amount: row.owed })}
            </Typography.Text>
          )}
        </Space>
      ),
    },
    {
      title: t('copyTrade.relations.field.status'),
      key: 'status',
      render: (_: unknown, row: ConsoleRelation) => (
        <Space direction="vertical" size={0} style={{ whiteSpace: 'nowrap' }}>
          <RelationStatusTag status={row.status} testId={`copy-relation-status-${row.id}`} />
          {row.endTime && (
            <Muted small>
              {t('copyTrade.relations.endedLine', { time: formatTime(row.endTime) })}
            </Muted>
          )}
          {row.endMode !== null && (
            <Muted small>{t(`copyTrade.relations.endMode.${String(row.endMode) as '1'}`)}</Muted>
          )}
        </Space>
      ),
    },
    {
      title: t('copyTrade.relations.field.created'),
      key: 'created',
      render: (_: unknown, row: ConsoleRelation) => <TimeCell iso={row.createTime} />,
    },
  ];

  return (
    <div data-testid={testId}>
      <ToolbarRow>
        <Space wrap>
          <StatusFilter
            statuses={RELATION_STATUS}
            label={(value) => t(`copyTrade.relations.status.${String(value) as '1'}`)}
            placeholder={t('copyTrade.relations.allStatuses')}
            width={150}
            value={status}
            onChange={filterWith(setStatus)}
          />
          <InputNumber<number>
            min={1}
            precision={0}
            style={{ width: 170 }}
            placeholder={t('copyTrade.relations.trader')}
            value={traderId}
            onChange={filterWith(setTraderId)}
            data-testid="copy-relations-trader"
          />
          <AccountSearch
            placeholder={t('copyTrade.relations.follower')}
            onSearch={filterWith(setUserAccount)}
          />
          <RefreshButton list={list} />
        </Space>
      </ToolbarRow>
      <CopyTable<ConsoleRelation>
        help={t('copyTrade.relations.help')}
        testId={`${testId}-table`}
        columns={columns}
        paging={paging}
        emptyText={t('copyTrade.relations.empty')}
      />
    </div>
  );
}
