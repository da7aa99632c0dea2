/**
 * Canned replies (support, admin): the texts the inbox offers by the customer's language (English
 * when there is none in theirs). Added, changed and deleted here; each change is audited.
 */
import { Button, Card, Form, Input, Modal, Popconfirm, Select, Space, Table } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { consoleServiceApi, LANGUAGES, SERVICE_TEXT_MAX, type CannedReply } from '@bourse/shared';
import { api } from '../../api';
import { useRowEditor } from '../../hooks/use-row-editor';
import { formatTime } from '../../lib/format';

const key = ['serviceInbox', 'canned'] as const;

interface Values {
  title: string;
  language: string;
  content: string;
}

export default function CannedPage() {
  const { t } = useTranslation();
  const replies = useQuery({
    queryKey: key,
    queryFn: () => api.call(consoleServiceApi.cannedReplies, { pageSize: 100 }),
  });
  const { form, editing, open, close, save, remove } = useRowEditor<CannedReply, Values>({
    queryKey: key,
    valuesOf: (row) =>
      row === 'new'
        ? { title: '', language: 'en', content: '' }
        : { title: row.title, language: row.language, content: row.content },
    save: (values) => api.call(consoleServiceApi.saveCannedReply, values),
    remove: (id) => api.call(consoleServiceApi.deleteCannedReply, { id }),
    savedText: t('service.cannedPage.saved'),
    deletedText: t('service.cannedPage.deleted'),
  });

  return (
    <Card
      data-testid="canned-page"
      extra={
        <Button type="primary" onClick={() => open('new')} data-testid="canned-add">
          {t('service.cannedPage.add')}
        </Button>
      }
    >
      <Table<CannedReply>
        rowKey="id"
        loading={replies.isPending}
        dataSource={replies.data?.rows}
        pagination={false}
        locale={{ emptyText: t('service.cannedPage.none') }}
        columns={[
          {
            title: t('service.cannedPage.language'),
            dataIndex: 'language',
            width: 160,
            render: (language: string) =>
              LANGUAGES.find((item) => item.key === language)?.name ?? language,
          },
          { title: t('service.cannedPage.title'), dataIndex: 'title', width: 220 },
          {
            title: t('service.cannedPage.content'),
            dataIndex: 'content',
            render: (content: string) => <span style={{ whiteSpace: 'pre-wrap' }}>{content}</span>,
          },
          {
            title: t('service.cannedPage.updated'),
            dataIndex: 'updateTime',
            width: 200,
            render: (time: string) => formatTime(time),
          },
          {
            key: 'actions',
            width: 160,
            render: (_, row) => (
              <Space>
                <Button size="small" onClick={() => open(row)}>
                  {t('service.cannedPage.edit')}
                </Button>
                <Popconfirm
                  title={t('service.cannedPage.deleteConfirm')}
                  onConfirm={() => void remove(row.id)}
                >
                  <Button size="small" danger>
                    {t('service.cannedPage.delete')}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
      <Modal
        open={editing !== null}
        title={t(editing === 'new' ? 'service.cannedPage.add' : 'service.cannedPage.edit')}
        onCancel={close}
        onOk={() => void save()}
        destroyOnHidden
      >
        <Form form={form} layout="vertical">
          <Form.Item
            name="language"
            label={t('service.cannedPage.language')}
            rules={[{ required: true }]}
          >
            <Select
              options={LANGUAGES.map((language) => ({
                value: language.key,
                label: language.name,
              }))}
            />
          </Form.Item>
          <Form.Item
            name="title"
            label={t('service.cannedPage.title')}
            rules={[{ required: true, max: 64 }]}
          >
            <Input maxLength={64} />
          </Form.Item>
          <Form.Item
            name="content"
            label={t('service.cannedPage.content')}
            rules={[{ required: true, max: SERVICE_TEXT_MAX }]}
          >
            <Input.TextArea autoSize={{ minRows: 3, maxRows: 10 }} maxLength={SERVICE_TEXT_MAX} />
          </Form.Item>
        </Form>
      </Modal>
    </Card>
  );
}
