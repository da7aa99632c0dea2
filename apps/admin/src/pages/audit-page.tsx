/**
 * The audit log (admin): every operator action, newest first, paged on the server and filtered by
 * what the call takes (auditQuery: operator, action, target type and id, and a range of days in
 * the browser's time zone, checked with that schema). A row opens on what changed: each field's
 * value before and after, the changed ones marked. The filtered log downloads as CSV (the
 * server's export: the newest 10,000 entries at most, before and after as JSON).
 */
import { useState } from 'react';
import {
  App,
  AutoComplete,
  Button,
  DatePicker,
  Form,
  Input,
  Select,
  Space,
  Table,
  Tag,
  Typography,
} from 'antd';
import type { AutoCompleteProps, TableColumnsType } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  AUDIT_EXPORT_MAX_ROWS,
  auditQuery,
  consoleOperatorsApi,
  operatorsApi,
  PAGE,
  type AuditEntry,
} from '@bourse/shared';
import { api } from '../api';
import { errorText } from '../i18n';
import { checkWith, clearChangedErrors } from '../lib/form';
import { formatTime } from '../lib/format';
import { saveFile } from '../lib/save-file';
import { usePagedQuery } from '../hooks/use-paged-query';
import { ListError } from '../components/data-table';
import { SearchButtons } from '../components/search-buttons';

/** The part of a picked day (dayjs, antd's dates) the range needs. */
interface Day {
  startOf(unit: 'day'): Day;
  add(amount: number, unit: 'day'): Day;
  toISOString(): string;
}

type Filter = {
  operatorId?: number;
  action?: string;
  targetType?: string;
  targetId?: string;
  from?: string;
  to?: string;
};

const OPERATOR_CHOICES = { pageNum: 1, pageSize: PAGE.maxSize };

const FILTER_FIELDS = ['operatorId', 'action', 'targetType', 'targetId', 'from', 'to'] as const;

/** The days picked, as the moments the call takes: from the first day's start to the next day's after the last. */
function rangeOf(days: [Day | null, Day | null] | null | undefined) {
  const [first, last] = days ?? [];
  return {
    from: first ? first.startOf('day').toISOString() : undefined,
    to: last ? last.add(1, 'day').startOf('day').toISOString() : undefined,
  };
}

function shown(value: unknown): string {
  if (value === undefined) return '–';
  if (value === null) return 'null';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function fieldsOf(value: unknown): Record<string, unknown> {
  return value && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

/** A filter's text, offering the names the console knows that contain what is typed. */
function NameInput({ names, ...props }: { names: string[] } & AutoCompleteProps) {
  return (
    <AutoComplete
      allowClear
      options={names.map((value) => ({ value }))}
      filterOption={(typed, option) => String(option?.value ?? '').includes(typed)}
      {...props}
    />
  );
}

/** Each field of the target before and after the action; the changed ones marked. */
function Changes({ entry }: { entry: AuditEntry }) {
  const { t } = useTranslation();
  const before = fieldsOf(entry.before);
  const after = fieldsOf(entry.after);
  const names = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  // What changed first, then the rest as it was.
  const rows = names
    .map((name) => ({
      name,
      before: name in before ? shown(before[name]) : '–',
      after: name in after ? shown(after[name]) : '–',
    }))
    .sort((a, b) => Number(a.before === a.after) - Number(b.before === b.after));
  return (
    <div data-testid="audit-changes">
      {entry.before === null && (
        <Typography.Paragraph type="secondary">{t('audit.created')}</Typography.Paragraph>
      )}
      <Table
        size="small"
        rowKey="name"
        pagination={false}
        dataSource={rows}
        columns={[
          { title: t('audit.field'), dataIndex: 'name', width: 220 },
          {
            title: t('audit.before'),
            dataIndex: 'before',
            render: (value: string, row) => (
              <Typography.Text
                delete={value !== row.after && value !== '–'}
                type={value !== row.after ? 'danger' : 'secondary'}
                style={{ wordBreak: 'break-all' }}
              >
                {value}
              </Typography.Text>
            ),
          },
          {
            title: t('audit.after'),
            dataIndex: 'after',
            render: (value: string, row) => (
              <Typography.Text
                type={value !== row.before ? 'success' : 'secondary'}
                strong={value !== row.before}
                style={{ wordBreak: 'break-all' }}
              >
                {value}
              </Typography.Text>
            ),
          },
        ]}
      />
    </div>
  );
}

export default function AuditPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm();
  const [filter, setFilter] = useState<Filter>({});
  const [exporting, setExporting] = useState(false);
  // The operators to pick from, by name (the first page of the largest size the call takes).
  const operators = useQuery({
    queryKey: ['operators', OPERATOR_CHOICES],
    queryFn: () => api.call(operatorsApi.operators, OPERATOR_CHOICES),
    staleTime: 60_000,
  });
  const { paging, list, table } = usePagedQuery({
    key: ['audit'],
    input: filter,
    load: (input) => api.call(operatorsApi.audit, input),
  });

  // Actions are named with a dot (`recharge.approve`): read from the map, not as a key path.
  const actions: Record<string, string> = t('audit.actions', { returnObjects: true });
  const targets: Record<string, string> = t('audit.targets', { returnObjects: true });
  const actionLabel = (action: string) => actions[action];
  const targetLabel = (type: string) => targets[type] ?? type;

  function search({ days, ...values }: Record<string, unknown>) {
    const range = rangeOf(days as [Day | null, Day | null] | null);
    const parsed = checkWith(form, auditQuery, { ...values, ...range, pageNum: 1 });
    if (!parsed) return;
    const next: Filter = {};
    for (const name of FILTER_FIELDS) {
      const value = parsed[name];
      if (value !== undefined) Object.assign(next, { [name]: value });
    }
    setFilter(next);
    paging.restart();
  }

  async function download() {
    setExporting(true);
    try {
      const file = await api.call(consoleOperatorsApi.auditExport, filter);
      const day = new Date().toISOString().slice(0, 10);
      saveFile(file, `audit-${day}.csv`);
    } catch (error) {
      void message.error(errorText(error));
    } finally {
      setExporting(false);
    }
  }

  const columns: TableColumnsType<AuditEntry> = [
    { title: t('audit.time'), dataIndex: 'createTime', width: 190, render: formatTime },
    {
      title: t('audit.operator'),
      width: 180,
      render: (_, row) => (
        <div style={{ lineHeight: 1.35 }}>
          <div>{row.operatorName}</div>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t('audit.operatorIdValue', { id: row.operatorId })}
          </Typography.Text>
        </div>
      ),
    },
    {
      title: t('audit.action'),
      render: (_, row) => (
        <Space size={6} wrap>
          <span>{actionLabel(row.action) ?? row.action}</span>
          <Tag style={{ fontFamily: 'monospace' }}>{row.action}</Tag>
        </Space>
      ),
    },
    {
      title: t('audit.target'),
      render: (_, row) => (
        <span>
          {targetLabel(row.targetType)}
          {row.targetId !== null && (
            <Typography.Text type="secondary"> #{row.targetId}</Typography.Text>
          )}
        </span>
      ),
    },
    { title: t('audit.ip'), dataIndex: 'ip', width: 140, render: (ip: string | null) => ip ?? '–' },
  ];

  return (
    <div style={{ background: '#fff', padding: 24, borderRadius: 8 }}>
      <Form
        form={form}
        layout="inline"
        onFinish={search}
        onValuesChange={(changed: Record<string, unknown>) => clearChangedErrors(form, changed)}
        style={{ marginBottom: 16, rowGap: 12 }}
        data-testid="audit-filter"
      >
        <Form.Item name="operatorId" label={t('audit.operator')}>
          <Select<number>
            allowClear
            showSearch
            optionFilterProp="label"
            options={operators.data?.rows.map((row) => ({
              value: row.id,
              label: `${row.username} (${row.id})`,
            }))}
            loading={operators.isPending}
            style={{ width: 180 }}
            data-testid="audit-operator"
          />
        </Form.Item>
        <Form.Item name="action" label={t('audit.action')}>
          <NameInput
            names={Object.keys(actions)}
            style={{ width: 200 }}
            data-testid="audit-action"
          />
        </Form.Item>
        <Form.Item name="targetType" label={t('audit.targetType')}>
          <NameInput names={Object.keys(targets)} style={{ width: 150 }} />
        </Form.Item>
        <Form.Item name="targetId" label={t('audit.targetId')}>
          <Input style={{ width: 110 }} allowClear data-testid="audit-target-id" />
        </Form.Item>
        <Form.Item name="days" label={t('audit.days')}>
          <DatePicker.RangePicker
            allowEmpty={[true, true]}
            style={{ width: 260 }}
            data-testid="audit-days"
          />
        </Form.Item>
        <SearchButtons
          testId="audit-search"
          onReset={() => {
            form.resetFields();
            setFilter({});
            paging.restart();
          }}
        >
          <Button
            icon={<DownloadOutlined />}
            loading={exporting}
            onClick={() => void download()}
            title={t('audit.exportHelp', { count: AUDIT_EXPORT_MAX_ROWS })}
            data-testid="audit-export"
          >
            {t('audit.export')}
          </Button>
        </SearchButtons>
      </Form>
      <ListError error={list.error} />
      <Table<AuditEntry>
        rowKey="id"
        columns={columns}
        {...table}
        expandable={{ expandedRowRender: (row) => <Changes entry={row} /> }}
        data-testid="audit-table"
      />
    </div>
  );
}
