/**
 * The drawer a site message is written in: its audience (an announcement to everyone, or one
 * user by account or id), type, publishing time (empty: at once), and its title and content in
 * the 19 languages, one tab each (English first: the others fall back to it), the content with
 * the console's RichTextEditor and a preview of the language's text as the app shows it. The
 * server sanitises the content on save; a refusal shows above the form.
 */
import { useState } from 'react';
import { Form, Input, Radio, Select, Space, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  MESSAGE_KIND,
  consoleMessagesApi,
  type ConsoleMessage,
  type ConsoleMessageType,
} from '@bourse/shared';
import { api } from '../../api';
import { EditorDrawer, useEditorSave } from '../../components/editor-drawer';
import { LanguageTabs } from '../../components/language-tabs';
import { RichTextEditor } from '../../components/rich-text-editor';
import { isoTime, localTime } from '../../lib/format';

interface Draft {
  kind: number;
  typeId: number;
  userAccount: string;
  /** As a datetime-local input holds it (`YYYY-MM-DDTHH:mm`), or ''. */
  publishTime: string;
  title: Record<string, string>;
  content: Record<string, string>;
}

function draftOf(message: ConsoleMessage | undefined, types: readonly ConsoleMessageType[]): Draft {
  return {
    kind: message?.kind ?? MESSAGE_KIND.announcement,
    // A new message: the first type after the platform's own (system) messages.
    typeId:
      message?.typeId ?? (types.find((type) => type.enabled && type.id !== 1) ?? types[0])?.id ?? 1,
    userAccount: message?.userAccount ?? '',
    publishTime: message && !message.published ? localTime(message.publishTime) : '',
    title: { ...message?.title },
    content: { ...message?.content },
  };
}

const filled = (value: string | undefined) =>
  Boolean(value && value.replace(/<[^>]*>/g, '').trim());

export function MessageEditor({
  message,
  types,
  onClose,
}: {
  message?: ConsoleMessage;
  types: readonly ConsoleMessageType[];
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const [draft, setDraft] = useState<Draft>(() => draftOf(message, types));
  const [language, setLanguage] = useState('en');
  const [preview, setPreview] = useState(false);
  const saving = useEditorSave({ saved: t('messages.saved'), queryKey: ['messages'], onClose });
  const set = (change: Partial<Draft>) => setDraft((current) => ({ ...current, ...change }));
  const setText = (field: 'title' | 'content', lang: string, value: string) =>
    setDraft((current) => ({ ...current, [field]: { ...current[field], [lang]: value } }));
  /** Whether a language has a title or content (its tab shows a dot). */
  const written = (lang: string) => filled(draft.title[lang]) || filled(draft.content[lang]);
  const typeName = (type: ConsoleMessageType) =>
    type.name[i18n.language] ?? type.name.en ?? String(type.id);

  const save = async () => {
    const keep = (texts: Record<string, string>) =>
      Object.fromEntries(Object.entries(texts).filter(([, value]) => filled(value)));
    const title = keep(draft.title);
    const content = keep(draft.content);
    if (!title.en || !content.en) {
      saving.setFailure(t('messages.englishRequired'));
      setLanguage('en');
      return;
    }
    await saving.send(() =>
      api.call(consoleMessagesApi.saveMessage, {
        id: message?.id,
        kind: draft.kind,
        typeId: draft.typeId,
        userAccount: draft.kind === MESSAGE_KIND.personal ? draft.userAccount.trim() : undefined,
        title,
        content,
        publishTime: isoTime(draft.publishTime),
      }),
    );
  };

  return (
    <EditorDrawer
      title={message ? t('messages.edit') : t('messages.new')}
      testId="message"
      saveText={t('messages.save')}
      saving={saving}
      onSave={() => void save()}
      onClose={onClose}
    >
      <Form layout="vertical" component="div">
        <Space wrap size={16} align="start">
          <Form.Item label={t('messages.field.kind')}>
            <Radio.Group
              value={draft.kind}
              onChange={(event) => set({ kind: event.target.value as number })}
              optionType="button"
              data-testid="message-kind"
              options={[MESSAGE_KIND.announcement, MESSAGE_KIND.personal].map((kind) => ({
                value: kind,
                label: (
                  <span data-testid={`message-kind-${kind}`}>
                    {t(`messages.kind.${kind === 1 ? '1' : '2'}`)}
                  </span>
                ),
              }))}
            />
          </Form.Item>
          <Form.Item label={t('messages.field.type')}>
            <Select
              style={{ width: 200 }}
              value={draft.typeId}
              onChange={(typeId: number) => set({ typeId })}
              options={types.map((type) => ({ value: type.id, label: typeName(type) }))}
              data-testid="message-type"
            />
          </Form.Item>
          {draft.kind === MESSAGE_KIND.personal && (
            <Form.Item
              label={t('messages.field.user')}
              tooltip={t('messages.field.userHelp')}
              required
            >
              <Input
                style={{ width: 260 }}
                value={draft.userAccount}
                onChange={(event) => set({ userAccount: event.target.value })}
                data-testid="message-user"
              />
            </Form.Item>
          )}
          <Form.Item
            label={t('messages.field.publishTime')}
            tooltip={t('messages.field.publishHelp')}
          >
            <Input
              type="datetime-local"
              value={draft.publishTime}
              disabled={message?.published}
              onChange={(event) => set({ publishTime: event.target.value })}
              data-testid="message-publish"
            />
          </Form.Item>
          <Form.Item label={t('messages.preview')}>
            <Switch checked={preview} onChange={setPreview} data-testid="message-preview" />
          </Form.Item>
        </Space>
        <Typography.Paragraph type="secondary">{t('messages.languagesHelp')}</Typography.Paragraph>
        <LanguageTabs active={language} onChange={setLanguage} testId="message" written={written}>
          {(item, dir) =>
            preview ? (
              <div
                data-testid={`message-preview-${item.key}`}
                dir={dir}
                style={{
                  maxWidth: 390,
                  padding: 16,
                  border: '1px solid #d9d9d9',
                  borderRadius: 12,
                }}
              >
                {written(item.key) ? (
                  <>
                    <Typography.Title level={5} style={{ marginTop: 0 }}>
                      {draft.title[item.key] || draft.title.en}
                    </Typography.Title>
                    <div
                      // The editor's own HTML (its schema admits no script); the server
                      // sanitises it again on save.
                      dangerouslySetInnerHTML={{
                        __html: draft.content[item.key] || draft.content.en || '',
                      }}
                    />
                  </>
                ) : (
                  <Typography.Text type="secondary">{t('messages.previewEmpty')}</Typography.Text>
                )}
              </div>
            ) : (
              <>
                <Form.Item label={t('messages.field.title')} required={item.key === 'en'}>
                  <Input
                    value={draft.title[item.key] ?? ''}
                    maxLength={120}
                    dir={dir}
                    onChange={(event) => setText('title', item.key, event.target.value)}
                    data-testid={`message-title-${item.key}`}
                  />
                </Form.Item>
                <Form.Item label={t('messages.field.content')} required={item.key === 'en'}>
                  <RichTextEditor
                    value={draft.content[item.key] ?? ''}
                    onChange={(html) => setText('content', item.key, html)}
                    testId={`message-content-${item.key}`}
                    dir={dir}
                  />
                </Form.Item>
              </>
            )
          }
        </LanguageTabs>
      </Form>
    </EditorDrawer>
  );
}
