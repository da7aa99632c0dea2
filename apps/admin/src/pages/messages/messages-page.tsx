/**
 * Site messages (support, content, admin): every announcement and personal message with its
 * audience, type, publishing time, state (scheduled, published, withdrawn) and how many of its
 * readers read it; a drawer composes one in the 19 languages (message-editor.tsx), a confirmed
 * click withdraws one. The types tab keeps the app's message tabs (content and admin). Every
 * change is in the audit log.
 */
import { useState } from 'react';
import {
  App,
  Button,
  Checkbox,
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
import { PlusOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  MESSAGE_KIND,
  consoleMessagesApi,
  type ConsoleMessage,
  type ConsoleMessageType,
} from '@bourse/shared';
import { api } from '../../api';
import { Muted, TimeCell, ToolbarRow } from '../../components/cells';
import { DataTable, ListError } from '../../components/data-table';
import { currentLanguage, errorText } from '../../i18n';
import { useOperator } from '../../app/operator';
import { mayCall } from '../../lib/access';
import { TAB_LANGUAGES } from '../../components/language-tabs';
import { MessageEditor } from './message-editor';

const PAGE_SIZE = 20;

function useTypes() {
  return useQuery({
    queryKey: ['messages', 'types'],
    queryFn: () => api.call(consoleMessagesApi.messageTypes),
  });
}

const nameOf = (texts: Record<string, string>, language: string) =>
  texts[language] || texts.en || Object.values(texts)[0] || '';

function MessagesTable() {
  const { t } = useTranslation();
  const { message: toast } = App.useApp();
  const queryClient = useQueryClient();
  const language = currentLanguage();
  const [pageNum, setPageNum] = useState(1);
  const [kind, setKind] = useState<number>();
  const [typeId, setTypeId] = useState<number>();
  const [editing, setEditing] = useState<ConsoleMessage | 'new'>();
  const types = useTypes().data?.rows ?? [];
  const list = useQuery({
    queryKey: ['messages', 'list', pageNum, kind, typeId],
    queryFn: () =>
      api.call(consoleMessagesApi.messages, { pageNum, pageSize: PAGE_SIZE, kind, typeId }),
    placeholderData: keepPreviousData,
  });

  const withdraw = async (row: ConsoleMessage) => {
    try {
      await api.call(consoleMessagesApi.withdrawMessage, { id: row.id });
      void toast.success(t('messages.withdrawn'));
      await queryClient.invalidateQueries({ queryKey: ['messages'] });
    } catch (error) {
      void toast.error(errorText(error));
    }
  };

  const columns = [
    {
      title: t('messages.field.title'),
      key: 'title',
      render: (_: unknown, row: ConsoleMessage) => (
        <Space direction="vertical" size={0}>
          <Typography.Text strong data-testid={`message-row-title-${row.id}`}>
            {nameOf(row.title, language)}
          </Typography.Text>
          <Muted small>
            {TAB_LANGUAGES.filter((item) => row.title[item.key])
              .map((item) => item.key)
              .join(' · ')}
          </Muted>
        </Space>
      ),
    },
    {
      title: t('messages.field.kind'),
      key: 'kind',
      width: 220,
      render: (_: unknown, row: ConsoleMessage) =>
        row.kind === MESSAGE_KIND.announcement ? (
          <Tag color="blue">{t('messages.kind.1')}</Tag>
        ) : (
          <Space size={4}>
            <Tag color="purple">{t('messages.kind.2')}</Tag>
            <Typography.Text ellipsis style={{ maxWidth: 140 }}>
              {row.userAccount}
            </Typography.Text>
          </Space>
        ),
    },
    {
      title: t('messages.field.type'),
      key: 'type',
      width: 140,
      render: (_: unknown, row: ConsoleMessage) => {
        const type = types.find((item) => item.id === row.typeId);
        return type ? nameOf(type.name, language) : row.typeName;
      },
    },
    {
      title: t('messages.field.time'),
      key: 'time',
      width: 150,
      render: (_: unknown, row: ConsoleMessage) => <TimeCell iso={row.publishTime} />,
    },
    {
      title: t('messages.field.status'),
      key: 'status',
      width: 110,
      render: (_: unknown, row: ConsoleMessage) =>
        row.withdrawn ? (
          <Tag>{t('messages.withdrawn')}</Tag>
        ) : row.published ? (
          <Tag color="green">{t('messages.published')}</Tag>
        ) : (
          <Tag color="gold">{t('messages.scheduled')}</Tag>
        ),
    },
    {
      title: t('messages.readCount'),
      key: 'read',
      width: 110,
      align: 'end' as const,
      render: (_: unknown, row: ConsoleMessage) => (
        <span data-testid={`message-read-${row.id}`}>
          {t('messages.readOf', { read: row.readCount, audience: row.audience })}
        </span>
      ),
    },
    {
      title: '',
      key: 'actions',
      width: 170,
      render: (_: unknown, row: ConsoleMessage) => (
        <Space>
          <Button
            size="small"
            disabled={row.withdrawn}
            onClick={() => setEditing(row)}
            data-testid={`message-edit-${row.id}`}
          >
            {t('messages.edit')}
          </Button>
          <Popconfirm
            title={t('messages.withdrawConfirm')}
            okText={t('messages.withdraw')}
            okButtonProps={{ danger: true }}
            cancelText={t('common.cancel')}
            onConfirm={() => withdraw(row)}
            disabled={row.withdrawn}
          >
            <Button
              size="small"
              danger
              disabled={row.withdrawn}
              data-testid={`message-withdraw-${row.id}`}
            >
              {t('messages.withdraw')}
            </Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];

  return (
    <div data-testid="messages-list">
      <ToolbarRow>
        <Space wrap>
          <Select
            allowClear
            style={{ width: 160 }}
            placeholder={t('messages.filterKind')}
            value={kind}
            onChange={(value?: number) => {
              setKind(value);
              setPageNum(1);
            }}
            options={[1, 2].map((value) => ({
              value,
              label: t(`messages.kind.${value === 1 ? '1' : '2'}`),
            }))}
          />
          <Select
            allowClear
            style={{ width: 180 }}
            placeholder={t('messages.filterType')}
            value={typeId}
            onChange={(value?: number) => {
              setTypeId(value);
              setPageNum(1);
            }}
            options={types.map((type) => ({ value: type.id, label: nameOf(type.name, language) }))}
          />
          <Typography.Text type="secondary">{t('messages.help')}</Typography.Text>
        </Space>
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => setEditing('new')}
          data-testid="message-new"
        >
          {t('messages.new')}
        </Button>
      </ToolbarRow>
      <ListError error={list.error} />
      <DataTable<ConsoleMessage>
        testId="messages-table"
        columns={columns}
        paging={{ list, pageNum, pageSize: PAGE_SIZE, onChange: setPageNum }}
        emptyText={t('messages.empty')}
      />
      {editing && (
        <MessageEditor
          message={editing === 'new' ? undefined : editing}
          types={types}
          onClose={() => setEditing(undefined)}
        />
      )}
    </div>
  );
}

interface TypeDraft {
  id?: number;
  name: Record<string, string>;
  sort: number;
  enabled: boolean;
}

function TypesTable() {
  const { t } = useTranslation();
  const { message: toast } = App.useApp();
  const queryClient = useQueryClient();
  const language = currentLanguage();
  const operator = useOperator();
  const canEdit = mayCall(operator, consoleMessagesApi.saveMessageType);
  const types = useTypes();
  const [draft, setDraft] = useState<TypeDraft>();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string>();

  const save = async () => {
    if (!draft) return;
    setBusy(true);
    setFailure(undefined);
    try {
      await api.call(consoleMessagesApi.saveMessageType, {
        ...draft,
        name: Object.fromEntries(Object.entries(draft.name).filter(([, value]) => value.trim())),
      });
      void toast.success(t('messages.types.saved'));
      await queryClient.invalidateQueries({ queryKey: ['messages'] });
      setDraft(undefined);
    } catch (error) {
      setFailure(errorText(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div data-testid="message-types">
      <ToolbarRow>
        <Typography.Text type="secondary">{t('messages.types.help')}</Typography.Text>
        {canEdit && (
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => setDraft({ name: {}, sort: 0, enabled: true })}
            data-testid="message-type-new"
          >
            {t('messages.types.new')}
          </Button>
        )}
      </ToolbarRow>
      <ListError error={types.error} />
      <DataTable<ConsoleMessageType>
        testId="message-types-table"
        dataSource={types.data?.rows}
        loading={types.isPending}
        pagination={false}
        columns={[
          {
            title: t('messages.types.name'),
            key: 'name',
            render: (_: unknown, row) => nameOf(row.name, language),
          },
          { title: t('messages.types.sort'), dataIndex: 'sort', key: 'sort', width: 100 },
          {
            title: t('messages.types.enabled'),
            key: 'enabled',
            width: 160,
            render: (_: unknown, row) => (row.enabled ? <Tag color="green">✓</Tag> : <Tag>—</Tag>),
          },
          { title: t('messages.types.count'), dataIndex: 'messageCount', key: 'count', width: 110 },
          {
            title: '',
            key: 'actions',
            width: 100,
            render: (_: unknown, row) =>
              canEdit && (
                <Button
                  size="small"
                  onClick={() =>
                    setDraft({
                      id: row.id,
                      name: { ...row.name },
                      sort: row.sort,
                      enabled: row.enabled,
                    })
                  }
                  data-testid={`message-type-edit-${row.id}`}
                >
                  {t('messages.types.edit')}
                </Button>
              ),
          },
        ]}
      />
      {draft && (
        <Modal
          open
          width={640}
          title={draft.id ? t('messages.types.edit') : t('messages.types.new')}
          okText={t('messages.types.save')}
          cancelText={t('common.cancel')}
          confirmLoading={busy}
          onOk={() => void save()}
          onCancel={() => setDraft(undefined)}
          destroyOnHidden
        >
          {failure && <Typography.Paragraph type="danger">{failure}</Typography.Paragraph>}
          <Form layout="vertical" component="div">
            <Space size={16}>
              <Form.Item label={t('messages.types.sort')}>
                <InputNumber
                  value={draft.sort}
                  min={-10_000}
                  max={10_000}
                  onChange={(value) => setDraft({ ...draft, sort: value ?? 0 })}
                />
              </Form.Item>
              <Form.Item label={t('messages.types.enabled')}>
                <Checkbox
                  checked={draft.enabled}
                  onChange={(event) => setDraft({ ...draft, enabled: event.target.checked })}
                />
              </Form.Item>
            </Space>
            <div style={{ maxHeight: 420, overflowY: 'auto' }}>
              {TAB_LANGUAGES.map((item) => (
                <Form.Item
                  key={item.key}
                  label={item.name}
                  required={item.key === 'en'}
                  style={{ marginBottom: 8 }}
                >
                  <Input
                    dir={item.rtl ? 'rtl' : undefined}
                    maxLength={40}
                    value={draft.name[item.key] ?? ''}
                    onChange={(event) =>
                      setDraft({
                        ...draft,
                        name: { ...draft.name, [item.key]: event.target.value },
                      })
                    }
                    data-testid={`message-type-name-${item.key}`}
                  />
                </Form.Item>
              ))}
            </div>
          </Form>
        </Modal>
      )}
    </div>
  );
}

export default function MessagesPage() {
  const { t } = useTranslation();
  return (
    <div style={{ background: '#fff', padding: 24, borderRadius: 8 }} data-testid="messages-page">
      <Tabs
        destroyOnHidden
        items={[
          {
            key: 'messages',
            label: <span data-testid="messages-tab-messages">{t('messages.tab.messages')}</span>,
            children: <MessagesTable />,
          },
          {
            key: 'types',
            label: <span data-testid="messages-tab-types">{t('messages.tab.types')}</span>,
            children: <TypesTable />,
          },
        ]}
      />
    </div>
  );
}
