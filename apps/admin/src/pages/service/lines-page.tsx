/**
 * Contact lines (admin): the external ways to reach the desk that the app's service page lists
 * beside the chat (a web page, Telegram, WhatsApp), each opened in a new tab. Addresses are https
 * only, Telegram's on t.me and WhatsApp's on wa.me or api.whatsapp.com (the server checks it
 * too); a line may be hidden without being deleted. Each change is audited.
 */
import {
  Alert,
  Button,
  Card,
  Form,
  Input,
  InputNumber,
  Modal,
  Popconfirm,
  Select,
  Space,
  Switch,
  Table,
  Tag,
} from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  consoleServiceApi,
  isServiceLineUrl,
  SERVICE_LINE_KINDS,
  type ServiceLineKind,
  type ServiceLineRow,
} from '@bourse/shared';
import { api } from '../../api';
import { useRowEditor } from '../../hooks/use-row-editor';
import { serverText } from '../../i18n';

const key = ['serviceLines'] as const;

interface Values {
  kind: ServiceLineKind;
  label: string;
  url: string;
  sort: number;
  enabled: boolean;
}

export default function LinesPage() {
  const { t } = useTranslation();
  const lines = useQuery({ queryKey: key, queryFn: () => api.call(consoleServiceApi.lines) });
  const { form, editing, open, close, save, remove } = useRowEditor<ServiceLineRow, Values>({
    queryKey: key,
    valuesOf: (row) =>
      row === 'new'
        ? { kind: 'web', label: '', url: 'https://', sort: 0, enabled: true }
        : { kind: row.kind, label: row.label, url: row.url, sort: row.sort, enabled: row.enabled },
    save: (values) => api.call(consoleServiceApi.saveLine, values),
    remove: (id) => api.call(consoleServiceApi.deleteLine, { id }),
    savedText: t('service.linesPage.saved'),
    deletedText: t('service.linesPage.deleted'),
  });

  return (
    <Card
      data-testid="lines-page"
      extra={
        <Button type="primary" onClick={() => open('new')} data-testid="line-add">
          {t('service.linesPage.add')}
        </Button>
      }
    >
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 16 }}
        message={t('service.linesPage.intro')}
      />
      <Table<ServiceLineRow>
        rowKey="id"
        loading={lines.isPending}
        dataSource={lines.data?.rows}
        pagination={false}
        locale={{ emptyText: t('service.linesPage.none') }}
        columns={[
          {
            title: t('service.linesPage.kind'),
            dataIndex: 'kind',
            width: 140,
            render: (kind: ServiceLineKind) => <Tag>{t(`service.linesPage.kinds.${kind}`)}</Tag>,
          },
          { title: t('service.linesPage.label'), dataIndex: 'label', width: 200 },
          {
            title: t('service.linesPage.url'),
            dataIndex: 'url',
            render: (url: string) => (
              <a href={url} target="_blank" rel="noopener noreferrer">
                {url}
              </a>
            ),
          },
          { title: t('service.linesPage.sort'), dataIndex: 'sort', width: 90 },
          {
            title: t('service.linesPage.enabled'),
            dataIndex: 'enabled',
            width: 90,
            render: (enabled: boolean) => (enabled ? '✓' : '–'),
          },
          {
            key: 'actions',
            width: 160,
            render: (_, row) => (
              <Space>
                <Button size="small" onClick={() => open(row)}>
                  {t('service.linesPage.edit')}
                </Button>
                <Popconfirm
                  title={t('service.linesPage.deleteConfirm')}
                  onConfirm={() => void remove(row.id)}
                >
                  <Button size="small" danger>
                    {t('service.linesPage.delete')}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
      <Modal
        open={editing !== null}
        title={t(editing === 'new' ? 'service.linesPage.add' : 'service.linesPage.edit')}
        onCancel={close}
        onOk={() => void save()}
        destroyOnHidden
      >
        <Form form={form} layout="vertical">
          <Form.Item name="kind" label={t('service.linesPage.kind')} rules={[{ required: true }]}>
            <Select
              options={SERVICE_LINE_KINDS.map((kind) => ({
                value: kind,
                label: t(`service.linesPage.kinds.${kind}`),
              }))}
            />
          </Form.Item>
          <Form.Item
            name="label"
            label={t('service.linesPage.label')}
            rules={[{ required: true, max: 64 }]}
          >
            <Input maxLength={64} />
          </Form.Item>
          <Form.Item
            name="url"
            label={t('service.linesPage.url')}
            dependencies={['kind']}
            rules={[
              { required: true },
              ({ getFieldValue }) => ({
                validator: (_, value: string) =>
                  isServiceLineUrl(getFieldValue('kind') as ServiceLineKind, value ?? '')
                    ? Promise.resolve()
                    : Promise.reject(new Error(serverText('hint_serviceLineUrl'))),
              }),
            ]}
          >
            <Input maxLength={512} data-testid="line-url" />
          </Form.Item>
          <Space size={24}>
            <Form.Item name="sort" label={t('service.linesPage.sort')}>
              <InputNumber min={0} max={9999} />
            </Form.Item>
            <Form.Item
              name="enabled"
              label={t('service.linesPage.enabled')}
              valuePropName="checked"
            >
              <Switch />
            </Form.Item>
          </Space>
        </Form>
      </Modal>
    </Card>
  );
}
