/**
 * Referral (admin and finance): the commission terms in force and their history, with new terms
 * set from now on (never backwards: fees already charged keep the terms of their time); the
 * inviters whose commissions are frozen, frozen and unfrozen with a reason the user is told; one
 * user's team and commissions; every commission record with its source order and ledger entry;
 * and the report of a period (top inviters by commission, commissions paid per day). Nothing here
 * moves money: the commission worker pays through the ledger. Every change is in the audit log.
 */
import { useState } from 'react';
import {
  App,
  Button,
  Card,
  Descriptions,
  Form,
  Input,
  InputNumber,
  Modal,
  Popconfirm,
  Select,
  Space,
  Tabs,
  Tag,
  Typography,
} from 'antd';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  consoleReferralApi as referralApi,
  div,
  mul,
  REFERRAL_RATE_SCALE,
  normalize,
  type ConsoleCommission,
  type ConsoleReferralTermsRow,
  type CurrencyAmount,
  type ReferralFreeze,
} from '@bourse/shared';
import { api } from '../../api';
import { Muted, OrderNo, TimeCell, ToolbarRow, UserCell } from '../../components/cells';
import { DataTable, ListError } from '../../components/data-table';
import { FailureAlert } from '../../components/failure-alert';
import { errorText } from '../../i18n';

const PAGE_SIZE = 20;
const DAY_MS = 86_400_000;

const percent = (rate: string) => `${normalize(mul(rate, '100'))}%`;

function Amounts({ rows, testId }: { rows: CurrencyAmount[]; testId?: string }) {
  if (rows.length === 0) return <span data-testid={testId}>0</span>;
  return (
    <span data-testid={testId}>
      {rows.map((row) => `${row.amount} ${row.currencyName}`).join(' · ')}
    </span>
  );
}

// ---------------------------------------------------------------- terms

function TermsTab() {
  const { t } = useTranslation();
  const { message: toast } = App.useApp();
  const queryClient = useQueryClient();
  const terms = useQuery({
    queryKey: ['referral', 'terms'],
    queryFn: () => api.call(referralApi.terms),
  });
  const [form] = Form.useForm<{ levels: number; rate1?: number; rate2?: number; rate3?: number }>();
  const levels = Form.useWatch('levels', form) ?? 3;
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string>();
  const current = terms.data?.current;

  async function save() {
    const values = form.getFieldsValue();
    setBusy(true);
    setFailure(undefined);
    const rate = (value: number | undefined) =>
      value === undefined || value === null
        ? undefined
        : div(String(value), '100', REFERRAL_RATE_SCALE);
    try {
      await api.call(referralApi.saveTerms, {
        levels: values.levels,
        rate1: rate(values.rate1) ?? '0',
        ...(values.levels >= 2 ? { rate2: rate(values.rate2) ?? '0' } : {}),
        ...(values.levels >= 3 ? { rate3: rate(values.rate3) ?? '0' } : {}),
      });
      void toast.success(t('referral.terms.saved'));
      await queryClient.invalidateQueries({ queryKey: ['referral'] });
    } catch (error) {
      setFailure(errorText(error));
    } finally {
      setBusy(false);
    }
  }

  const ratesText = (row: ConsoleReferralTermsRow) =>
    row.rates.map((rate, at) =>
      t('referral.terms.levelRate', { level: at + 1, rate: percent(rate) }),
    );

  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }} data-testid="referral-terms">
      <Card size="small" title={t('referral.terms.current')}>
        {current ? (
          <Space direction="vertical" size={4} data-testid="referral-terms-current">
            {ratesText(current).map((line) => (
              <Typography.Text key={line} strong>
                {line}
              </Typography.Text>
            ))}
            <Muted small>
              {t('referral.terms.since', {
                time: new Date(current.effectiveFrom).toLocaleString(),
                operator: current.operatorName,
              })}
            </Muted>
          </Space>
        ) : (
          <Typography.Text type="secondary" data-testid="referral-terms-current">
            {t('referral.terms.none')}
          </Typography.Text>
        )}
      </Card>
      <Card size="small" title={t('referral.terms.set')}>
        <Typography.Paragraph type="secondary">{t('referral.terms.help')}</Typography.Paragraph>
        <FailureAlert failure={failure} testId="referral-terms-failure" />
        <Form
          form={form}
          layout="inline"
          initialValues={{ levels: 3 }}
          onFinish={() => void save()}
          requiredMark={false}
        >
          <Form.Item label={t('referral.terms.levels')} name="levels">
            <Select
              style={{ width: 90 }}
              data-testid="referral-levels"
              options={[1, 2, 3].map((value) => ({ value, label: String(value) }))}
            />
          </Form.Item>
          {[1, 2, 3]
            .filter((level) => level <= levels)
            .map((level) => (
              <Form.Item
                key={level}
                label={t('referral.terms.rate', { level })}
                name={`rate${level}`}
              >
                <InputNumber
                  min={0}
                  max={50}
                  step={0.1}
                  addonAfter="%"
                  style={{ width: 130 }}
                  data-testid={`referral-rate-${level}`}
                />
              </Form.Item>
            ))}
          <Form.Item>
            <Popconfirm
              title={t('referral.terms.confirm')}
              okText={t('referral.terms.save')}
              cancelText={t('common.cancel')}
              onConfirm={() => form.submit()}
            >
              <Button type="primary" loading={busy} data-testid="referral-terms-save">
                {t('referral.terms.save')}
              </Button>
            </Popconfirm>
          </Form.Item>
        </Form>
      </Card>
      <ListError error={terms.error} />
      <DataTable<ConsoleReferralTermsRow>
        testId="referral-terms-history"
        dataSource={terms.data?.history}
        loading={terms.isPending}
        pagination={false}
        emptyText={t('referral.terms.none')}
        columns={[
          {
            title: t('referral.terms.effectiveFrom'),
            key: 'from',
            width: 160,
            render: (_: unknown, row) => <TimeCell iso={row.effectiveFrom} />,
          },
          { title: t('referral.terms.levels'), dataIndex: 'levels', key: 'levels', width: 90 },
          {
            title: t('referral.terms.rates'),
            key: 'rates',
            render: (_: unknown, row) => row.rates.map(percent).join(' / '),
          },
          { title: t('referral.operator'), dataIndex: 'operatorName', key: 'operator', width: 160 },
        ]}
      />
    </Space>
  );
}

// ---------------------------------------------------------------- freezes

function FreezeDialog({
  userId,
  frozen,
  onClose,
}: {
  userId?: number;
  frozen: boolean;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const { message: toast } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<{ userId?: number; reason?: string }>();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string>();

  async function submit() {
    const values = form.getFieldsValue();
    setBusy(true);
    setFailure(undefined);
    try {
      await api.call(frozen ? referralApi.unfreeze : referralApi.freeze, {
        userId: values.userId ?? userId ?? 0,
        reason: values.reason ?? '',
      });
      void toast.success(t(frozen ? 'referral.freeze.unfrozen' : 'referral.freeze.frozen'));
      await queryClient.invalidateQueries({ queryKey: ['referral'] });
      onClose();
    } catch (error) {
      setFailure(errorText(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal
      open
      title={t(frozen ? 'referral.freeze.unfreezeTitle' : 'referral.freeze.freezeTitle')}
      okText={t(frozen ? 'referral.freeze.unfreeze' : 'referral.freeze.freeze')}
      okButtonProps={{ danger: !frozen, loading: busy, 'data-testid': 'referral-freeze-confirm' }}
      cancelText={t('common.cancel')}
      onOk={() => void submit()}
      onCancel={onClose}
      destroyOnHidden
      width={560}
    >
      <Typography.Paragraph type="secondary">
        {t(frozen ? 'referral.freeze.unfreezeHelp' : 'referral.freeze.freezeHelp')}
      </Typography.Paragraph>
      <FailureAlert failure={failure} testId="referral-freeze-failure" />
      <Form form={form} layout="vertical" initialValues={{ userId }} requiredMark={false}>
        <Form.Item label={t('referral.userId')} name="userId">
          <InputNumber
            min={1}
            style={{ width: 200 }}
            disabled={userId !== undefined}
            data-testid="referral-freeze-user"
          />
        </Form.Item>
        <Form.Item label={t('referral.freeze.reason')} name="reason">
          <Input.TextArea rows={3} maxLength={500} showCount data-testid="referral-freeze-reason" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

function FreezesTab() {
  const { t } = useTranslation();
  const [pageNum, setPageNum] = useState(1);
  const [dialog, setDialog] = useState<{ userId?: number; frozen: boolean }>();
  const list = useQuery({
    queryKey: ['referral', 'freezes', pageNum],
    queryFn: () => api.call(referralApi.freezes, { pageNum, pageSize: PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
  return (
    <div data-testid="referral-freezes">
      <ToolbarRow>
        <Typography.Text type="secondary">{t('referral.freeze.help')}</Typography.Text>
        <Button
          danger
          onClick={() => setDialog({ frozen: false })}
          data-testid="referral-freeze-new"
        >
          {t('referral.freeze.freeze')}
        </Button>
      </ToolbarRow>
      <ListError error={list.error} />
      <DataTable<ReferralFreeze>
        testId="referral-freezes-table"
        rowKey="userId"
        paging={{ list, pageNum, pageSize: PAGE_SIZE, onChange: setPageNum }}
        emptyText={t('referral.freeze.empty')}
        columns={[
          {
            title: t('referral.user'),
            key: 'user',
            width: 260,
            render: (_: unknown, row) => <UserCell account={row.userAccount} id={row.userId} />,
          },
          { title: t('referral.freeze.reason'), dataIndex: 'reason', key: 'reason' },
          { title: t('referral.operator'), dataIndex: 'operatorName', key: 'operator', width: 140 },
          {
            title: t('referral.freeze.since'),
            key: 'since',
            width: 140,
            render: (_: unknown, row) => <TimeCell iso={row.frozenAt} />,
          },
          {
            title: '',
            key: 'actions',
            width: 120,
            render: (_: unknown, row) => (
              <Button
                size="small"
                onClick={() => setDialog({ userId: row.userId, frozen: true })}
                data-testid={`referral-unfreeze-${row.userId}`}
              >
                {t('referral.freeze.unfreeze')}
              </Button>
            ),
          },
        ]}
      />
      {dialog && (
        <FreezeDialog
          userId={dialog.userId}
          frozen={dialog.frozen}
          onClose={() => setDialog(undefined)}
        />
      )}
    </div>
  );
}

// ---------------------------------------------------------------- commissions and a user

function CommissionsTable({ inviterId, payerId }: { inviterId?: number; payerId?: number }) {
  const { t } = useTranslation();
  const [pageNum, setPageNum] = useState(1);
  const list = useQuery({
    queryKey: ['referral', 'commissions', inviterId, payerId, pageNum],
    queryFn: () =>
      api.call(referralApi.commissions, { pageNum, pageSize: PAGE_SIZE, inviterId, payerId }),
    placeholderData: keepPreviousData,
  });
  return (
    <>
      <ListError error={list.error} />
      <DataTable<ConsoleCommission>
        testId="referral-commissions-table"
        paging={{ list, pageNum, pageSize: PAGE_SIZE, onChange: setPageNum }}
        emptyText={t('referral.commissions.empty')}
        columns={[
          {
            title: t('referral.commissions.inviter'),
            key: 'inviter',
            width: 220,
            render: (_: unknown, row) => (
              <UserCell account={row.inviterAccount} id={row.inviterId} />
            ),
          },
          {
            title: t('referral.commissions.payer'),
            key: 'payer',
            width: 220,
            render: (_: unknown, row) => <UserCell account={row.payerAccount} id={row.payerId} />,
          },
          {
            title: t('referral.commissions.level'),
            dataIndex: 'level',
            key: 'level',
            width: 70,
          },
          {
            title: t('referral.commissions.source'),
            key: 'source',
            render: (_: unknown, row) => (
              <Space direction="vertical" size={0}>
                <span>{t(`referral.source.${row.sourceType}`)}</span>
                <OrderNo value={row.orderNo} />
              </Space>
            ),
          },
          {
            title: t('referral.commissions.fee'),
            key: 'fee',
            width: 170,
            render: (_: unknown, row) => (
              <Space direction="vertical" size={0}>
                <span>
                  {row.fee} {row.currencyName}
                </span>
                <Muted small>× {percent(row.rate)}</Muted>
              </Space>
            ),
          },
          {
            title: t('referral.commissions.amount'),
            key: 'amount',
            width: 150,
            align: 'end' as const,
            render: (_: unknown, row) => (
              <Space direction="vertical" size={0} align="end">
                <Typography.Text strong data-testid={`referral-commission-amount-${row.id}`}>
                  {row.amount} {row.currencyName}
                </Typography.Text>
                {row.status === 2 ? (
                  <Tag color="gold">{t('referral.commissions.withheld')}</Tag>
                ) : (
                  <Muted small>{t('referral.commissions.entry', { id: row.entryId })}</Muted>
                )}
              </Space>
            ),
          },
          {
            title: t('referral.commissions.time'),
            key: 'time',
            width: 130,
            render: (_: unknown, row) => <TimeCell iso={row.createTime} />,
          },
        ]}
      />
    </>
  );
}

function UserTab() {
  const { t } = useTranslation();
  const [userId, setUserId] = useState<number>();
  const [draft, setDraft] = useState<number | null>(null);
  const [dialog, setDialog] = useState(false);
  const user = useQuery({
    queryKey: ['referral', 'user', userId],
    queryFn: () => api.call(referralApi.user, { userId: userId! }),
    enabled: userId !== undefined,
    retry: false,
  });
  const data = user.data;
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }} data-testid="referral-user">
      <Space>
        <InputNumber
          min={1}
          placeholder={t('referral.userId')}
          value={draft}
          onChange={(value) => setDraft(value)}
          onPressEnter={() => draft && setUserId(draft)}
          style={{ width: 200 }}
          data-testid="referral-user-id"
        />
        <Button
          type="primary"
          onClick={() => draft && setUserId(draft)}
          data-testid="referral-user-search"
        >
          {t('common.search')}
        </Button>
      </Space>
      <ListError error={user.error} />
      {data && (
        <>
          <Descriptions
            bordered
            size="small"
            column={2}
            data-testid="referral-user-detail"
            items={[
              {
                key: 'user',
                label: t('referral.user'),
                children: <UserCell account={data.userAccount} id={data.userId} />,
              },
              { key: 'code', label: t('referral.inviteCode'), children: data.inviteCode },
              {
                key: 'inviter',
                label: t('referral.inviter'),
                children: data.inviter ? (
                  <UserCell account={data.inviter.userAccount} id={data.inviter.id} />
                ) : (
                  '—'
                ),
              },
              {
                key: 'levels',
                label: t('referral.levelCounts'),
                children: (
                  <span data-testid="referral-user-levels">
                    {data.levelCounts
                      .map((count, at) => t('referral.levelCount', { level: at + 1, count }))
                      .join(' · ')}
                  </span>
                ),
              },
              {
                key: 'paid',
                label: t('referral.paid'),
                children: <Amounts rows={data.commissionPaid} testId="referral-user-paid" />,
              },
              {
                key: 'withheld',
                label: t('referral.withheld'),
                children: <Amounts rows={data.commissionWithheld} />,
              },
              {
                key: 'freeze',
                label: t('referral.freeze.state'),
                span: 2,
                children: (
                  <Space>
                    {data.freeze ? (
                      <>
                        <Tag color="red">{t('referral.freeze.isFrozen')}</Tag>
                        <span>{data.freeze.reason}</span>
                      </>
                    ) : (
                      <Tag color="green">{t('referral.freeze.notFrozen')}</Tag>
                    )}
                    <Button
                      size="small"
                      danger={!data.freeze}
                      onClick={() => setDialog(true)}
                      data-testid="referral-user-freeze"
                    >
                      {t(data.freeze ? 'referral.freeze.unfreeze' : 'referral.freeze.freeze')}
                    </Button>
                  </Space>
                ),
              },
            ]}
          />
          <Typography.Title level={5}>{t('referral.tab.commissions')}</Typography.Title>
          <CommissionsTable inviterId={data.userId} />
        </>
      )}
      {dialog && data && (
        <FreezeDialog
          userId={data.userId}
          frozen={data.freeze !== null}
          onClose={() => setDialog(false)}
        />
      )}
    </Space>
  );
}

// ---------------------------------------------------------------- report

const PERIODS = [7, 30, 90] as const;

function ReportTab() {
  const { t } = useTranslation();
  const [days, setDays] = useState<number>(30);
  const [startTime] = useState(() => new Map<number, string>());
  if (!startTime.has(days))
    startTime.set(
      days,
      new Date(Math.floor((Date.now() - days * DAY_MS) / 60_000) * 60_000).toISOString(),
    );
  const report = useQuery({
    queryKey: ['referral', 'report', days],
    queryFn: () => api.call(referralApi.report, { startTime: startTime.get(days) }),
  });
  // Both tables end with the number of commissions and their total.
  const totals = (amountWidth?: number) => [
    {
      title: t('referral.report.commissions'),
      dataIndex: 'commissions',
      key: 'count',
      width: 140,
    },
    {
      title: t('referral.commissions.amount'),
      key: 'amount',
      width: amountWidth,
      align: 'end' as const,
      render: (_: unknown, row: { amount: string; currencyName: string }) =>
        `${row.amount} ${row.currencyName}`,
    },
  ];
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }} data-testid="referral-report">
      <Select
        style={{ width: 160 }}
        value={days}
        onChange={setDays}
        data-testid="referral-report-period"
        options={PERIODS.map((value) => ({
          value,
          label: t('referral.report.days', { count: value }),
        }))}
      />
      <ListError error={report.error} />
      <Card size="small" title={t('referral.report.top')}>
        <DataTable
          testId="referral-report-top"
          rowKey={(row) => `${row.userId}:${row.currencyName}`}
          dataSource={report.data?.topInviters}
          loading={report.isPending}
          pagination={false}
          emptyText={t('referral.commissions.empty')}
          columns={[
            {
              title: t('referral.commissions.inviter'),
              key: 'user',
              render: (_: unknown, row) => <UserCell account={row.userAccount} id={row.userId} />,
            },
            ...totals(200),
          ]}
        />
      </Card>
      <Card size="small" title={t('referral.report.perDay')}>
        <DataTable
          testId="referral-report-days"
          rowKey={(row) => `${row.day}:${row.currencyName}`}
          dataSource={report.data?.perDay}
          loading={report.isPending}
          pagination={false}
          emptyText={t('referral.commissions.empty')}
          columns={[
            { title: t('referral.report.day'), dataIndex: 'day', key: 'day', width: 160 },
            ...totals(),
          ]}
        />
      </Card>
    </Space>
  );
}

export default function ReferralPage() {
  const { t } = useTranslation();
  return (
    <Tabs
      data-testid="referral-page"
      destroyOnHidden
      items={[
        { key: 'terms', label: t('referral.tab.terms'), children: <TermsTab /> },
        { key: 'report', label: t('referral.tab.report'), children: <ReportTab /> },
        {
          key: 'commissions',
          label: t('referral.tab.commissions'),
          children: <CommissionsTable />,
        },
        { key: 'freezes', label: t('referral.tab.freezes'), children: <FreezesTab /> },
        { key: 'user', label: t('referral.tab.user'), children: <UserTab /> },
      ]}
    />
  );
}
