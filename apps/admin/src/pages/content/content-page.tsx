/**
 * Content (content operators and admins): Q&A categories and questions, rich-text pages,
 * activities, news, the scrolling notice's lines and the home banners, one tab each. Each entry is
 * written in the 19 languages (English the fallback) in a drawer; deleting asks first. Every
 * change is in the audit log.
 */
import { useState } from 'react';
import { App, Button, Input, Popconfirm, Space, Tabs, Tag, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  consoleContentApi,
  type ContentEntry,
  type ContentKind,
  type LanguageKey,
} from '@bourse/shared';
import { api } from '../../api';
import { Muted, TimeCell, ToolbarRow } from '../../components/cells';
import { DataTable, ListError } from '../../components/data-table';
import { currentLanguage, errorText } from '../../i18n';
import { ContentEditor } from './content-editor';

const KINDS: readonly ContentKind[] = [
  'qa',
  'qaCategory',
  'page',
  'activity',
  'news',
  'notice',
  'banner',
];
const PAGE_SIZE = 20;

/** An entry's title in the console's language, else English, else any. */
function titleOf(entry: ContentEntry, language: LanguageKey | string): string {
  const texts = entry.texts;
  return (
    texts.find((text) => text.lang === language)?.title ||
    texts.find((text) => text.lang === 'en')?.title ||
    texts[0]?.title ||
    ''
  );
}

function windowText(entry: ContentEntry): string {
  const format = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '…');
  if (!entry.startTime && !entry.endTime) return '';
  return `${format(entry.startTime)} – ${format(entry.endTime)}`;
}

function useCategories() {
  return useQuery({
    queryKey: ['content', 'qaCategory', 'all'],
    queryFn: () =>
      api.call(consoleContentApi.contentList, { kind: 'qaCategory', pageNum: 1, pageSize: 100 }),
  });
}

function KindTable({ kind }: { kind: ContentKind }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const language = currentLanguage();
  const [pageNum, setPageNum] = useState(1);
  const [keyword, setKeyword] = useState('');
  const [editing, setEditing] = useState<ContentEntry | 'new'>();
  const list = useQuery({
    queryKey: ['content', kind, pageNum, keyword],
    queryFn: () =>
      api.call(consoleContentApi.contentList, {
        kind,
        pageNum,
        pageSize: PAGE_SIZE,
        keyword: keyword || undefined,
      }),
    placeholderData: keepPreviousData,
  });
  const categories = useCategories();
  const categoryTitles = (categories.data?.rows ?? []).map((category) => ({
    id: category.id,
    title: titleOf(category, language),
  }));

  const remove = async (entry: ContentEntry) => {
    try {
      await api.call(consoleContentApi.deleteContent, { id: entry.id });
      void message.success(t('content.deleted'));
      await queryClient.invalidateQueries({ queryKey: ['content'] });
    } catch (error) {
      void message.error(errorText(error));
    }
  };

  const columns = [
    {
      title: kind === 'qa' ? t('content.field.question') : t('content.field.title'),
      key: 'title',
      render: (_: unknown, entry: ContentEntry) => (
        <Space direction="vertical" size={0}>
          <Typography.Text strong data-testid={`content-row-title-${entry.id}`}>
            {titleOf(entry, language)}
          </Typography.Text>
          <Muted small>
            {t('content.languages', { count: entry.texts.length })}
            {entry.texts.some((text) => text.lang === 'en') ? '' : ` · ${t('content.noEnglish')}`}
          </Muted>
        </Space>
      ),
    },
    ...(kind === 'page'
      ? [{ title: t('content.field.key'), dataIndex: 'key', key: 'key', width: 200 }]
      : []),
    ...(kind === 'qa'
      ? [
          {
            title: t('content.field.category'),
            key: 'category',
            width: 200,
            render: (_: unknown, entry: ContentEntry) =>
              categoryTitles.find((category) => category.id === entry.parentId)?.title ?? (
                <Muted>{t('content.noCategory')}</Muted>
              ),
          },
        ]
      : []),
    ...(kind === 'activity' || kind === 'notice' || kind === 'banner'
      ? [
          {
            title: t('content.field.window'),
            key: 'window',
            width: 260,
            render: (_: unknown, entry: ContentEntry) => windowText(entry) || <Muted>—</Muted>,
          },
        ]
      : []),
    ...(kind === 'notice' || kind === 'banner'
      ? [{ title: t('content.field.route'), dataIndex: 'route', key: 'route', width: 140 }]
      : []),
    ...(kind === 'news'
      ? [
          {
            title: t('content.field.publishTime'),
            key: 'publish',
            width: 130,
            render: (_: unknown, entry: ContentEntry) => <TimeCell iso={entry.publishTime} />,
          },
          {
            title: t('content.views'),
            dataIndex: 'viewCount',
            key: 'views',
            width: 90,
            align: 'end' as const,
          },
        ]
      : []),
    ...(kind !== 'page' && kind !== 'news'
      ? [{ title: t('content.field.sort'), dataIndex: 'sort', key: 'sort', width: 80 }]
      : []),
    {
      title: t('content.field.visible'),
      key: 'visible',
      width: 100,
      render: (_: unknown, entry: ContentEntry) =>
        entry.visible ? (
          <Tag color="green">{t('content.shown')}</Tag>
        ) : (
          <Tag>{t('content.hidden')}</Tag>
        ),
    },
    {
      title: t('content.updated'),
      key: 'updated',
      width: 150,
      render: (_: unknown, entry: ContentEntry) => (
        <Space direction="vertical" size={0}>
          <TimeCell iso={entry.updateTime} />
          {entry.updatedBy && <Muted small>{entry.updatedBy}</Muted>}
        </Space>
      ),
    },
    {
      title: '',
      key: 'actions',
      width: 150,
      render: (_: unknown, entry: ContentEntry) => (
        <Space>
          <Button
            size="small"
            onClick={() => setEditing(entry)}
            data-testid={`content-edit-${entry.id}`}
          >
            {t('content.editButton')}
          </Button>
          <Popconfirm
            title={t('content.deleteConfirm')}
            okText={t('content.delete')}
            okButtonProps={{ danger: true }}
            cancelText={t('common.cancel')}
            onConfirm={() => remove(entry)}
          >
            <Button size="small" danger data-testid={`content-delete-${entry.id}`}>
              {t('content.delete')}
            </Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];

  return (
    <div data-testid={`content-kind-${kind}`}>
      <ToolbarRow>
        <Space wrap>
          <Input.Search
            allowClear
            placeholder={t('content.searchTitle')}
            onSearch={(value) => {
              setKeyword(value.trim());
              setPageNum(1);
            }}
            style={{ width: 280 }}
          />
          <Typography.Text type="secondary">{t(`content.help.${kind}`)}</Typography.Text>
        </Space>
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => setEditing('new')}
          data-testid="content-new"
        >
          {t('content.new', { kind: t(`content.kind.${kind}`) })}
        </Button>
      </ToolbarRow>
      <ListError error={list.error} />
      <DataTable<ContentEntry>
        testId={`content-table-${kind}`}
        columns={columns}
        paging={{ list, pageNum, pageSize: PAGE_SIZE, onChange: setPageNum }}
        emptyText={t('content.empty')}
      />
      {editing && (
        <ContentEditor
          kind={kind}
          entry={editing === 'new' ? undefined : editing}
          categories={categoryTitles}
          onClose={() => setEditing(undefined)}
        />
      )}
    </div>
  );
}

export default function ContentPage() {
  const { t } = useTranslation();
  const [kind, setKind] = useState<ContentKind>('qa');
  return (
    <div style={{ background: '#fff', padding: 24, borderRadius: 8 }} data-testid="content-page">
      <Tabs
        activeKey={kind}
        onChange={(key) => setKind(key as ContentKind)}
        destroyOnHidden
        items={KINDS.map((item) => ({
          key: item,
          label: <span data-testid={`content-tab-kind-${item}`}>{t(`content.tab.${item}`)}</span>,
          children: <KindTable kind={item} />,
        }))}
      />
    </div>
  );
}
