/**
 * The drawer an entry of content is written in: its settings (by kind: page key, Q&A category,
 * time window, publish time, app route, image, order, visibility) and its texts in the 19
 * languages, one tab each (English first: the others fall back to it). Rich bodies are written
 * with the console's RichTextEditor; the server sanitises them on save, and a refusal is shown
 * above the form.
 */
import { useState } from 'react';
import {
  AutoComplete,
  Button,
  Checkbox,
  Form,
  Input,
  InputNumber,
  Select,
  Space,
  Switch,
  Typography,
  Upload,
} from 'antd';
import { useTranslation } from 'react-i18next';
import {
  IMAGE_CONTENT_KINDS,
  RICH_CONTENT_KINDS,
  RICH_TEXT_KEYS,
  consoleContentApi,
  type ContentEntry,
  type ContentKind,
  type ContentSaveInput,
} from '@bourse/shared';
import { api } from '../../api';
import { EditorDrawer, useEditorSave } from '../../components/editor-drawer';
import { LanguageTabs } from '../../components/language-tabs';
import { RichTextEditor } from '../../components/rich-text-editor';
import { isoTime, localTime } from '../../lib/format';

/** App routes a notice or banner commonly opens (any route name of the app may be typed). */
const APP_ROUTES = [
  'activity',
  'qa',
  'newsComponent',
  'richText',
  'service',
  'recharge',
  'quotes',
  'welfare',
  'share',
  'team',
  'me',
];

type Texts = Record<string, { title: string; body: string }>;

interface Draft {
  key: string;
  parentId?: number;
  sort: number;
  visible: boolean;
  route: string;
  /** Local times as a datetime-local input holds them (`YYYY-MM-DDTHH:mm`), or ''. */
  startTime: string;
  endTime: string;
  publishTime: string;
  image?: string;
  removeImage: boolean;
  texts: Texts;
}

function draftOf(entry: ContentEntry | undefined): Draft {
  const texts: Texts = {};
  for (const text of entry?.texts ?? []) texts[text.lang] = { title: text.title, body: text.body };
  return {
    key: entry?.key ?? '',
    parentId: entry?.parentId ?? undefined,
    sort: entry?.sort ?? 0,
    visible: entry?.visible ?? true,
    route: entry?.route ?? '',
    startTime: localTime(entry?.startTime),
    endTime: localTime(entry?.endTime),
    publishTime: localTime(entry?.publishTime),
    removeImage: false,
    texts,
  };
}

function readDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsDataURL(file);
  });
}

export function ContentEditor({
  kind,
  entry,
  categories,
  onClose,
}: {
  kind: ContentKind;
  entry?: ContentEntry;
  /** The Q&A categories (for a question), with their titles. */
  categories: readonly { id: number; title: string }[];
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<Draft>(() => draftOf(entry));
  const [language, setLanguage] = useState('en');
  const saving = useEditorSave({ saved: t('content.saved'), queryKey: ['content'], onClose });
  const rich = RICH_CONTENT_KINDS.includes(kind);
  const plainBody = kind === 'banner';
  const withImage = IMAGE_CONTENT_KINDS.includes(kind);
  const withWindow = kind === 'activity' || kind === 'notice' || kind === 'banner';
  const withRoute = kind === 'notice' || kind === 'banner';

  const set = (change: Partial<Draft>) => setDraft((current) => ({ ...current, ...change }));
  const setText = (lang: string, change: Partial<{ title: string; body: string }>) =>
    setDraft((current) => ({
      ...current,
      texts: {
        ...current.texts,
        [lang]: { title: '', body: '', ...current.texts[lang], ...change },
      },
    }));

  const save = async () => {
    const body: ContentSaveInput = {
      id: entry?.id,
      kind,
      key: kind === 'page' ? draft.key : undefined,
      parentId: kind === 'qa' ? draft.parentId : undefined,
      sort: draft.sort,
      visible: draft.visible,
      route: withRoute ? draft.route : undefined,
      startTime: withWindow ? isoTime(draft.startTime) : undefined,
      endTime: withWindow ? isoTime(draft.endTime) : undefined,
      publishTime: kind === 'news' ? isoTime(draft.publishTime) : undefined,
      image: draft.image,
      removeImage: draft.removeImage || undefined,
      texts: Object.entries(draft.texts)
        .filter(([, text]) => text.title.trim() !== '' || text.body.trim() !== '')
        .map(([lang, text]) => ({
          lang: lang as ContentSaveInput['texts'][number]['lang'],
          ...text,
        })),
    };
    if (!body.texts.some((text) => text.lang === 'en')) {
      saving.setFailure(t('content.englishRequired'));
      setLanguage('en');
      return;
    }
    await saving.send(() => api.call(consoleContentApi.saveContent, body));
  };

  const titleLabel =
    kind === 'qa'
      ? t('content.field.question')
      : kind === 'notice'
        ? t('content.field.noticeText')
        : kind === 'qaCategory'
          ? t('content.field.categoryName')
          : t('content.field.title');

  return (
    <EditorDrawer
      title={
        entry
          ? t('content.edit', { kind: t(`content.kind.${kind}`) })
          : t('content.new', { kind: t(`content.kind.${kind}`) })
      }
      testId="content"
      saveText={t('content.save')}
      saving={saving}
      onSave={() => void save()}
      onClose={onClose}
    >
      <Form layout="vertical" component="div">
        <Space wrap size={16} align="start">
          {kind === 'page' && (
            <Form.Item label={t('content.field.key')} required>
              <AutoComplete
                style={{ width: 240 }}
                value={draft.key}
                disabled={entry !== undefined}
                options={RICH_TEXT_KEYS.map((key) => ({ value: key }))}
                onChange={(value: string) => set({ key: value })}
                data-testid="content-key"
              />
            </Form.Item>
          )}
          {kind === 'qa' && (
            <Form.Item label={t('content.field.category')}>
              <Select
                style={{ width: 260 }}
                allowClear
                value={draft.parentId}
                placeholder={t('content.noCategory')}
                options={categories.map((category) => ({
                  value: category.id,
                  label: category.title,
                }))}
                onChange={(value?: number) => set({ parentId: value })}
                data-testid="content-category"
              />
            </Form.Item>
          )}
          {withRoute && (
            <Form.Item label={t('content.field.route')} tooltip={t('content.routeHelp')}>
              <AutoComplete
                style={{ width: 220 }}
                value={draft.route}
                allowClear
                options={APP_ROUTES.map((route) => ({ value: route }))}
                onChange={(value?: string) => set({ route: value ?? '' })}
                data-testid="content-route"
              />
            </Form.Item>
          )}
          {withWindow && (
            <Form.Item label={t('content.field.window')} tooltip={t('content.windowHelp')}>
              <Space.Compact>
                <Input
                  type="datetime-local"
                  aria-label={t('content.field.start')}
                  value={draft.startTime}
                  onChange={(event) => set({ startTime: event.target.value })}
                  data-testid="content-start"
                />
                <Input
                  type="datetime-local"
                  aria-label={t('content.field.end')}
                  value={draft.endTime}
                  onChange={(event) => set({ endTime: event.target.value })}
                  data-testid="content-end"
                />
              </Space.Compact>
            </Form.Item>
          )}
          {kind === 'news' && (
            <Form.Item label={t('content.field.publishTime')} tooltip={t('content.publishHelp')}>
              <Input
                type="datetime-local"
                value={draft.publishTime}
                onChange={(event) => set({ publishTime: event.target.value })}
                data-testid="content-publish"
              />
            </Form.Item>
          )}
          {kind !== 'page' && kind !== 'news' && (
            <Form.Item label={t('content.field.sort')} tooltip={t('content.sortHelp')}>
              <InputNumber
                value={draft.sort}
                min={-1_000_000}
                max={1_000_000}
                onChange={(value) => set({ sort: value ?? 0 })}
                data-testid="content-sort"
              />
            </Form.Item>
          )}
          <Form.Item label={t('content.field.visible')}>
            <Switch
              checked={draft.visible}
              onChange={(visible) => set({ visible })}
              data-testid="content-visible"
            />
          </Form.Item>
        </Space>
        {withImage && (
          <Form.Item label={t('content.field.image')} extra={t('content.imageHelp')}>
            <Space align="center" wrap>
              {(draft.image ?? (!draft.removeImage && entry?.image)) && (
                <img
                  src={draft.image ?? entry?.image}
                  alt=""
                  style={{ height: 72, borderRadius: 6, objectFit: 'cover' }}
                  data-testid="content-image-preview"
                />
              )}
              <Upload
                accept="image/jpeg,image/png"
                showUploadList={false}
                beforeUpload={async (file) => {
                  set({ image: await readDataUrl(file), removeImage: false });
                  return false;
                }}
              >
                <Button data-testid="content-image-pick">{t('content.pickImage')}</Button>
              </Upload>
              {(draft.image ?? entry?.image) && !draft.removeImage && (
                <Checkbox
                  checked={draft.removeImage}
                  onChange={(event) => set({ removeImage: event.target.checked, image: undefined })}
                >
                  {t('content.removeImage')}
                </Checkbox>
              )}
            </Space>
          </Form.Item>
        )}
        <Typography.Text type="secondary">{t('content.languagesHelp')}</Typography.Text>
        <LanguageTabs
          active={language}
          onChange={setLanguage}
          testId="content"
          written={(lang) => {
            const text = draft.texts[lang];
            return Boolean(text && (text.title.trim() || text.body.trim()));
          }}
        >
          {(item, dir) => {
            const text = draft.texts[item.key];
            return (
              <>
                <Form.Item label={titleLabel} required={item.key === 'en'}>
                  <Input
                    value={text?.title ?? ''}
                    maxLength={200}
                    dir={dir}
                    onChange={(event) => setText(item.key, { title: event.target.value })}
                    data-testid={`content-title-${item.key}`}
                  />
                </Form.Item>
                {rich && (
                  <Form.Item
                    label={kind === 'qa' ? t('content.field.answer') : t('content.field.body')}
                    required={kind === 'qa' && item.key === 'en'}
                  >
                    <RichTextEditor
                      value={text?.body ?? ''}
                      onChange={(html) => setText(item.key, { body: html })}
                      placeholder={t('content.bodyPlaceholder')}
                      testId={`content-body-${item.key}`}
                      dir={dir}
                    />
                  </Form.Item>
                )}
                {plainBody && (
                  <Form.Item label={t('content.field.bannerText')}>
                    <Input.TextArea
                      value={text?.body ?? ''}
                      maxLength={500}
                      autoSize={{ minRows: 2, maxRows: 4 }}
                      onChange={(event) => setText(item.key, { body: event.target.value })}
                      data-testid={`content-text-${item.key}`}
                    />
                  </Form.Item>
                )}
              </>
            );
          }}
        </LanguageTabs>
      </Form>
    </EditorDrawer>
  );
}
