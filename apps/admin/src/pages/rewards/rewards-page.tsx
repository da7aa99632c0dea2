/**
 * Welfare and rewards (admin, finance): campaigns with their window, budget and spend (the sum of
 * their payments, never typed), tasks with how many completed and were paid, a drawer to write one
 * (campaign-editor.tsx), and ending one early with a reason; the deposit reward tiers (a change
 * retires the version and adds a new one: deposits submitted before keep theirs); and every
 * user's reward history. Every change is in the audit log.
 */
import { useState } from 'react';
import { App, Button, Form, Input, Modal, Select, Space, Tabs, Tag, Typography } from 'antd';
import type { ButtonProps } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  consoleRewardsApi,
  type ConsoleCampaign,
  type ConsoleRewardRecord,
  type ConsoleTier,
} from '@bourse/shared';
import { api } from '../../api';
import { Muted, TimeCell, ToolbarRow, UserCell } from '../../components/cells';
import { DataTable, ListError } from '../../components/data-table';
import { percent, useCurrencies } from '../../components/settings/parts';
import { currentLanguage, errorText } from '../../i18n';
import { CampaignEditor } from './campaign-editor';

const PAGE_SIZE = 20;

const nameOf = (texts: Record<string, string>, language: string) =>
  texts[language] || texts.en || Object.values(texts)[0] || '';

const STATUS_COLOR = { upcoming: 'gold', running: 'green', ended: 'default' } as const;

function CampaignsTable() {
  const { t } = useTranslation();
  const { message: toast } = App.useApp();
  const queryClient = useQueryClient();
  const language = currentLanguage();
  const [pageNum, setPageNum] = useState(1);
  const [status, setStatus] = useState<ConsoleCampaign['status']>();
  const [editing, setEditing] = useState<ConsoleCampaign | 'new'>();
  const [ending, setEnding] = useState<ConsoleCampaign>();
  const [reason, setReason] = useState('');
  const [failure, setFailure] = useState<string>();
  const list = useQuery({
    queryKey: ['rewards', 'campaigns', pageNum, status],
    queryFn: () => api.call(consoleRewardsApi.campaigns, { pageNum, pageSize: PAGE_SIZE, status }),
    placeholderData: keepPreviousData,
  });

  const end = async () => {
    if (!ending) return;
    setFailure(undefined);
    try {
      await api.call(consoleRewardsApi.endCampaign, { id: ending.id, reason: reason.trim() });
      void toast.success(t('rewards.ended'));
      await queryClient.invalidateQueries({ queryKey: ['rewards'] });
      setEnding(undefined);
    } catch (error) {
      setFailure(errorText(error));
    }
  };

  const columns = [
    {
      title: t('rewards.field.title'),
      key: 'title',
      render: (_: unknown, row: ConsoleCampaign) => (
        <Space direction="vertical" size={0}>
          <Typography.Text strong data-testid={`campaign-row-title-${row.id}`}>
            {nameOf(row.title, language)}
          </Typography.Text>
          <Muted small>
            {row.tasks
              .map((task) => `${t(`rewards.kind.${task.kind}`)} · ${task.reward} ${row.currency}`)
              .join(' / ')}
          </Muted>
        </Space>
      ),
    },
    {
      title: t('rewards.field.window'),
      key: 'window',
      width: 190,
      render: (_: unknown, row: ConsoleCampaign) => (
        <Space direction="vertical" size={0}>
          <TimeCell iso={row.startTime} />
          <TimeCell iso={row.endedTime ?? row.endTime} />
        </Space>
      ),
    },
    {
      title: t('rewards.field.spent'),
      key: 'spent',
      width: 200,
      align: 'end' as const,
      render: (_: unknown, row: ConsoleCampaign) => (
        <span data-testid={`campaign-spent-${row.id}`}>
          {row.spent} / {row.budget} {row.currency}
        </span>
      ),
    },
    {
      title: t('rewards.field.completions'),
      key: 'completions',
      width: 120,
      align: 'end' as const,
      render: (_: unknown, row: ConsoleCampaign) =>
        t('rewards.paidOf', {
          paid: row.tasks.reduce((sum, task) => sum + task.paidCount, 0),
          done: row.tasks.reduce((sum, task) => sum + task.completions, 0),
        }),
    },
    {
      title: t('rewards.field.status'),
      key: 'status',
      width: 110,
      render: (_: unknown, row: ConsoleCampaign) => (
        <Tag color={STATUS_COLOR[row.status]} data-testid={`campaign-status-${row.id}`}>
          {t(`rewards.status.${row.status}`)}
        </Tag>
      ),
    },
    {
      title: '',
      key: 'actions',
      width: 160,
      render: (_: unknown, row: ConsoleCampaign) => (
        <Space>
          <Button
            size="small"
            disabled={row.status === 'ended'}
            onClick={() => setEditing(row)}
            data-testid={`campaign-edit-${row.id}`}
          >
            {t('rewards.edit')}
          </Button>
          <Button
            size="small"
            danger
            disabled={row.status === 'ended'}
            onClick={() => {
              setReason('');
              setFailure(undefined);
              setEnding(row);
            }}
            data-testid={`campaign-end-${row.id}`}
          >
            {t('rewards.end')}
          </Button>
        </Space>
      ),
    },
  ];

  return (
    <div data-testid="rewards-campaigns">
      <ToolbarRow>
        <Space wrap>
          <Select
            allowClear
            style={{ width: 160 }}
            placeholder={t('rewards.field.status')}
            value={status}
            onChange={(value?: ConsoleCampaign['status']) => {
              setStatus(value);
              setPageNum(1);
            }}
            options={(['upcoming', 'running', 'ended'] as const).map((value) => ({
              value,
              label: t(`rewards.status.${value}`),
            }))}
          />
          <Typography.Text type="secondary">{t('rewards.help')}</Typography.Text>
        </Space>
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => setEditing('new')}
          data-testid="campaign-new"
        >
          {t('rewards.new')}
        </Button>
      </ToolbarRow>
      <ListError error={list.error} />
      <DataTable<ConsoleCampaign>
        testId="campaigns-table"
        columns={columns}
        paging={{ list, pageNum, pageSize: PAGE_SIZE, onChange: setPageNum }}
        emptyText={t('rewards.empty')}
      />
      {editing && (
        <CampaignEditor
          campaign={editing === 'new' ? undefined : editing}
          onClose={() => setEditing(undefined)}
        />
      )}
      <Modal
        open={Boolean(ending)}
        title={t('rewards.endTitle')}
        okText={t('rewards.end')}
        okButtonProps={
          {
            danger: true,
            disabled: !reason.trim(),
            'data-testid': 'campaign-end-ok',
          } as ButtonProps
        }
        cancelText={t('common.cancel')}
        onOk={() => void end()}
        onCancel={() => setEnding(undefined)}
      >
        <Typography.Paragraph type="secondary">{t('rewards.endHelp')}</Typography.Paragraph>
        {failure && <Typography.Paragraph type="danger">{failure}</Typography.Paragraph>}
        <Input.TextArea
          rows={3}
          maxLength={500}
          value={reason}
          placeholder={t('rewards.field.reason')}
          onChange={(event) => setReason(event.target.value)}
          data-testid="campaign-end-reason"
        />
      </Modal>
    </div>
  );
}

interface TierDraft {
  id?: number;
  currencyId: number;
  minAmount: string;
  maxAmount: string;
  rate: string;
}

function TiersTable() {
  const { t } = useTranslation();
  const { message: toast } = App.useApp();
  const queryClient = useQueryClient();
  const currencies = useCurrencies();
  const [retired, setRetired] = useState(false);
  const [draft, setDraft] = useState<TierDraft>();
  const [failure, setFailure] = useState<string>();
  const tiers = useQuery({
    queryKey: ['rewards', 'tiers', retired],
    queryFn: () => api.call(consoleRewardsApi.tiers, { retired }),
  });

  const save = async () => {
    if (!draft) return;
    setFailure(undefined);
    try {
      await api.call(consoleRewardsApi.saveTier, {
        id: draft.id,
        currencyId: draft.currencyId,
        minAmount: draft.minAmount.trim(),
        maxAmount: draft.maxAmount.trim() || undefined,
        rate: draft.rate.trim(),
      });
      void toast.success(t('rewards.tiers.saved'));
      await queryClient.invalidateQueries({ queryKey: ['rewards'] });
      setDraft(undefined);
    } catch (error) {
      setFailure(errorText(error));
    }
  };

  const retire = async (row: ConsoleTier) => {
    try {
      await api.call(consoleRewardsApi.retireTier, { id: row.id });
      void toast.success(t('rewards.tiers.retired'));
      await queryClient.invalidateQueries({ queryKey: ['rewards'] });
    } catch (error) {
      void toast.error(errorText(error));
    }
  };

  const columns = [
    {
      title: t('rewards.field.currency'),
      key: 'currency',
      width: 100,
      render: (_: unknown, row: ConsoleTier) => row.currency,
    },
    {
      title: t('rewards.tiers.range'),
      key: 'range',
      render: (_: unknown, row: ConsoleTier) =>
        row.maxAmount === null
          ? t('rewards.tiers.from', { min: row.minAmount })
          : `${row.minAmount} – ${row.maxAmount}`,
    },
    {
      title: t('rewards.tiers.rate'),
      key: 'rate',
      width: 100,
      render: (_: unknown, row: ConsoleTier) => (
        <span data-testid={`tier-rate-${row.id}`}>{percent(row.rate)}</span>
      ),
    },
    {
      title: t('rewards.tiers.paid'),
      key: 'paid',
      width: 180,
      align: 'end' as const,
      render: (_: unknown, row: ConsoleTier) =>
        `${row.payoutCount} · ${row.paidTotal} ${row.currency}`,
    },
    {
      title: t('rewards.tiers.since'),
      key: 'since',
      width: 170,
      render: (_: unknown, row: ConsoleTier) =>
        row.retiredTime ? (
          <Space direction="vertical" size={0}>
            <TimeCell iso={row.createTime} />
            <Tag>{t('rewards.tiers.retiredTag')}</Tag>
          </Space>
        ) : (
          <TimeCell iso={row.createTime} />
        ),
    },
    {
      title: '',
      key: 'actions',
      width: 170,
      render: (_: unknown, row: ConsoleTier) =>
        row.retiredTime ? null : (
          <Space>
            <Button
              size="small"
              onClick={() =>
                setDraft({
                  id: row.id,
                  currencyId: row.currencyId,
                  minAmount: row.minAmount,
                  maxAmount: row.maxAmount ?? '',
                  rate: row.rate,
                })
              }
              data-testid={`tier-edit-${row.id}`}
            >
              {t('rewards.edit')}
            </Button>
            <Button
              size="small"
              danger
              onClick={() => void retire(row)}
              data-testid={`tier-retire-${row.id}`}
            >
              {t('rewards.tiers.retire')}
            </Button>
          </Space>
        ),
    },
  ];

  return (
    <div data-testid="rewards-tiers">
      <ToolbarRow>
        <Space wrap>
          <Select
            style={{ width: 200 }}
            value={retired}
            onChange={setRetired}
            options={[
              { value: false, label: t('rewards.tiers.inForce') },
              { value: true, label: t('rewards.tiers.withRetired') },
            ]}
          />
          <Typography.Text type="secondary">{t('rewards.tiers.help')}</Typography.Text>
        </Space>
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => {
            setFailure(undefined);
            setDraft({ currencyId: 3, minAmount: '', maxAmount: '', rate: '' });
          }}
          data-testid="tier-new"
        >
          {t('rewards.tiers.new')}
        </Button>
      </ToolbarRow>
      <ListError error={tiers.error} />
      <DataTable<ConsoleTier>
        testId="tiers-table"
        columns={columns}
        dataSource={tiers.data?.rows}
        loading={tiers.isPending}
        pagination={false}
        emptyText={t('rewards.tiers.empty')}
      />
      <Modal
        open={Boolean(draft)}
        title={draft?.id ? t('rewards.tiers.edit') : t('rewards.tiers.new')}
        okText={t('rewards.save')}
        okButtonProps={{ 'data-testid': 'tier-save' } as ButtonProps}
        cancelText={t('common.cancel')}
        onOk={() => void save()}
        onCancel={() => setDraft(undefined)}
      >
        {failure && <Typography.Paragraph type="danger">{failure}</Typography.Paragraph>}
        {draft && (
          <Form layout="vertical" component="div">
            <Form.Item label={t('rewards.field.currency')} required>
              <Select
                value={draft.currencyId}
                onChange={(currencyId: number) => setDraft({ ...draft, currencyId })}
                options={currencies.options}
              />
            </Form.Item>
            <Space>
              <Form.Item label={t('rewards.tiers.min')} required>
                <Input
                  value={draft.minAmount}
                  onChange={(event) => setDraft({ ...draft, minAmount: event.target.value })}
                  data-testid="tier-min"
                />
              </Form.Item>
              <Form.Item label={t('rewards.tiers.max')} tooltip={t('rewards.tiers.maxHelp')}>
                <Input
                  value={draft.maxAmount}
                  onChange={(event) => setDraft({ ...draft, maxAmount: event.target.value })}
                  data-testid="tier-max"
                />
              </Form.Item>
              <Form.Item
                label={t('rewards.tiers.rateInput')}
                tooltip={t('rewards.tiers.rateHelp')}
                required
              >
                <Input
                  value={draft.rate}
                  onChange={(event) => setDraft({ ...draft, rate: event.target.value })}
                  data-testid="tier-rate"
                />
              </Form.Item>
            </Space>
          </Form>
        )}
      </Modal>
    </div>
  );
}

function RecordsTable() {
  const { t } = useTranslation();
  const [pageNum, setPageNum] = useState(1);
  const [account, setAccount] = useState('');
  const [userAccount, setUserAccount] = useState<string>();
  const [source, setSource] = useState<number>();
  const list = useQuery({
    queryKey: ['rewards', 'records', pageNum, userAccount, source],
    queryFn: () =>
      api.call(consoleRewardsApi.records, { pageNum, pageSize: PAGE_SIZE, userAccount, source }),
    placeholderData: keepPreviousData,
  });
  const columns = [
    {
      title: t('rewards.records.user'),
      key: 'user',
      width: 220,
      render: (_: unknown, row: ConsoleRewardRecord) => (
        <UserCell account={row.userAccount} id={row.userId} />
      ),
    },
    {
      title: t('rewards.records.what'),
      key: 'what',
      render: (_: unknown, row: ConsoleRewardRecord) =>
        row.taskKind ? (
          <Space direction="vertical" size={0}>
            <span>{t(`rewards.kind.${row.taskKind}`)}</span>
            <Muted small>{row.campaignTitle}</Muted>
          </Space>
        ) : (
          <Space direction="vertical" size={0}>
            <span>
              {t('rewards.records.tier', {
                rate: percent(row.rate ?? '0'),
                amount: row.depositAmount,
              })}
            </span>
            <Muted small>{row.rechargeOrderNo}</Muted>
          </Space>
        ),
    },
    {
      title: t('rewards.records.amount'),
      key: 'amount',
      width: 170,
      align: 'end' as const,
      render: (_: unknown, row: ConsoleRewardRecord) =>
        row.paid ? (
          `${row.amount} ${row.currency}`
        ) : (
          <Tag color="red">{t('rewards.records.unpaid')}</Tag>
        ),
    },
    {
      title: t('rewards.records.entry'),
      key: 'entry',
      width: 100,
      render: (_: unknown, row: ConsoleRewardRecord) => (row.entryId ? `#${row.entryId}` : '–'),
    },
    {
      title: t('rewards.records.time'),
      key: 'time',
      width: 160,
      render: (_: unknown, row: ConsoleRewardRecord) => <TimeCell iso={row.time} />,
    },
  ];
  return (
    <div data-testid="rewards-records">
      <ToolbarRow>
        <Space wrap>
          <Input.Search
            allowClear
            style={{ width: 280 }}
            placeholder={t('rewards.records.search')}
            value={account}
            onChange={(event) => setAccount(event.target.value)}
            onSearch={(value) => {
              setUserAccount(value.trim() || undefined);
              setPageNum(1);
            }}
            data-testid="rewards-records-user"
          />
          <Select
            allowClear
            style={{ width: 180 }}
            placeholder={t('rewards.records.source')}
            value={source}
            onChange={(value?: number) => {
              setSource(value);
              setPageNum(1);
            }}
            options={[
              { value: 1, label: t('rewards.records.sourceTask') },
              { value: 2, label: t('rewards.records.sourceTier') },
            ]}
          />
        </Space>
      </ToolbarRow>
      <ListError error={list.error} />
      <DataTable<ConsoleRewardRecord>
        testId="rewards-records-table"
        columns={columns}
        paging={{ list, pageNum, pageSize: PAGE_SIZE, onChange: setPageNum }}
        emptyText={t('rewards.records.empty')}
      />
    </div>
  );
}

export default function RewardsPage() {
  const { t } = useTranslation();
  return (
    <div style={{ background: '#fff', padding: 24, borderRadius: 8 }} data-testid="rewards-page">
      <Tabs
        destroyOnHidden
        items={[
          {
            key: 'campaigns',
            label: <span data-testid="rewards-tab-campaigns">{t('rewards.tab.campaigns')}</span>,
            children: <CampaignsTable />,
          },
          {
            key: 'tiers',
            label: <span data-testid="rewards-tab-tiers">{t('rewards.tab.tiers')}</span>,
            children: <TiersTable />,
          },
          {
            key: 'records',
            label: <span data-testid="rewards-tab-records">{t('rewards.tab.records')}</span>,
            children: <RecordsTable />,
          },
        ]}
      />
    </div>
  );
}
