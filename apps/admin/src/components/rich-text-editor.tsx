/**
 * The console's one rich-text editor (messages, Q&A, pages, activities, news): TipTap's starter
 * kit (paragraphs, headings, bold, italic, underline, strike, lists, quote, code, rule, links).
 * Its HTML is a small known set of elements, the one the server's sanitiser allows; the server
 * cleans every text again on save, so nothing typed or pasted here is trusted. A `<script>` typed
 * is text; one pasted as HTML is dropped by the editor's schema before the server sees it.
 *
 * Colours come from antd's tokens, so the editor follows the console's theme, light or dark.
 */
import {
  BoldOutlined,
  ItalicOutlined,
  LinkOutlined,
  OrderedListOutlined,
  StrikethroughOutlined,
  UnderlineOutlined,
  UnorderedListOutlined,
} from '@ant-design/icons';
import { EditorContent, useEditor, useEditorState, type Editor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { Button, Divider, Input, Popover, Space, Tooltip, theme } from 'antd';
import { useEffect, useState, type JSX, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export interface RichTextEditorProps {
  /** The HTML shown; an empty editor reports ''. */
  value: string;
  onChange(html: string): void;
  placeholder?: string;
  testId?: string;
  /** Writing direction of the text (Arabic tabs: 'rtl'). */
  dir?: 'ltr' | 'rtl';
}

const LINK_URL = /^(https?:\/\/|mailto:)\S+$/i;

function html(editor: Editor): string {
  return editor.isEmpty ? '' : editor.getHTML();
}

function ToolButton(props: {
  title: string;
  active?: boolean;
  disabled?: boolean;
  onClick(): void;
  children: ReactNode;
  testId?: string;
}): JSX.Element {
  return (
    <Tooltip title={props.title}>
      <Button
        size="small"
        type={props.active ? 'primary' : 'text'}
        aria-label={props.title}
        aria-pressed={props.active ?? false}
        disabled={props.disabled}
        data-testid={props.testId}
        onMouseDown={(event) => event.preventDefault()}
        onClick={props.onClick}
      >
        {props.children}
      </Button>
    </Tooltip>
  );
}

function LinkButton({ editor }: { editor: Editor }): JSX.Element {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [url, setUrl] = useState('');
  const valid = LINK_URL.test(url.trim());
  const apply = (): void => {
    if (!valid) return;
    editor
      .chain()
      .focus()
      .extendMarkRange('link')
      .setLink({ href: url.trim(), target: '_blank' })
      .run();
    setOpen(false);
  };
  const remove = (): void => {
    editor.chain().focus().extendMarkRange('link').unsetLink().run();
    setOpen(false);
  };
  return (
    <Popover
      open={open}
      trigger="click"
      onOpenChange={(next) => {
        if (next) setUrl((editor.getAttributes('link').href as string | undefined) ?? 'https://');
        setOpen(next);
      }}
      content={
        <Space.Compact style={{ width: 320 }}>
          <Input
            value={url}
            autoFocus
            status={url && !valid ? 'error' : undefined}
            placeholder="https://"
            aria-label={t('richText.linkUrl')}
            onChange={(event) => setUrl(event.target.value)}
            onPressEnter={apply}
          />
          <Button type="primary" disabled={!valid} onClick={apply}>
            {t('richText.linkApply')}
          </Button>
          {editor.isActive('link') ? (
            <Button danger onClick={remove}>
              {t('richText.linkRemove')}
            </Button>
          ) : null}
        </Space.Compact>
      }
    >
      <Tooltip title={t('richText.link')}>
        <Button
          size="small"
          type={editor.isActive('link') ? 'primary' : 'text'}
          aria-label={t('richText.link')}
          onMouseDown={(event) => event.preventDefault()}
        >
          <LinkOutlined />
        </Button>
      </Tooltip>
    </Popover>
  );
}

export function RichTextEditor(props: RichTextEditorProps): JSX.Element {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const { value, onChange, placeholder, testId, dir } = props;

  const editor = useEditor({
    extensions: [
      StarterKit.configure({
        heading: { levels: [1, 2, 3, 4] },
        link: {
          openOnClick: false,
          autolink: true,
          protocols: ['mailto'],
          HTMLAttributes: { rel: 'noopener noreferrer', target: '_blank' },
          isAllowedUri: (url) => LINK_URL.test(url),
        },
      }),
    ],
    content: value,
    editorProps: {
      attributes: {
        class: 'bourse-rich-text',
        role: 'textbox',
        'aria-multiline': 'true',
        ...(placeholder ? { 'aria-placeholder': placeholder } : {}),
        ...(dir ? { dir } : {}),
      },
    },
    onUpdate: ({ editor: current }) => onChange(html(current)),
  });

  // A value changed from outside (another language's tab, the loaded item) replaces the text.
  useEffect(() => {
    if (value !== html(editor)) editor.commands.setContent(value, { emitUpdate: false });
  }, [editor, value]);

  const state = useEditorState({
    editor,
    selector: ({ editor: current }) => ({
      bold: current.isActive('bold'),
      italic: current.isActive('italic'),
      underline: current.isActive('underline'),
      strike: current.isActive('strike'),
      heading: ([1, 2, 3, 4] as const).find((level) => current.isActive('heading', { level })),
      bullet: current.isActive('bulletList'),
      ordered: current.isActive('orderedList'),
      empty: current.isEmpty,
    }),
  });

  const css = `
    .bourse-rich-text-frame .bourse-rich-text { min-height: 180px; max-height: 480px; overflow-y: auto;
      padding: 8px 12px; outline: none; color: ${token.colorText}; line-height: 1.6; }
    .bourse-rich-text-frame .bourse-rich-text p { margin: 0 0 8px; }
    .bourse-rich-text-frame .bourse-rich-text h1, .bourse-rich-text-frame .bourse-rich-text h2,
    .bourse-rich-text-frame .bourse-rich-text h3, .bourse-rich-text-frame .bourse-rich-text h4 {
      color: ${token.colorTextHeading}; margin: 12px 0 8px; }
    .bourse-rich-text-frame .bourse-rich-text a { color: ${token.colorLink}; }
    .bourse-rich-text-frame .bourse-rich-text blockquote { margin: 0 0 8px;
      padding-inline-start: 12px; border-inline-start: 3px solid ${token.colorBorder};
      color: ${token.colorTextSecondary}; }
    .bourse-rich-text-frame .bourse-rich-text pre, .bourse-rich-text-frame .bourse-rich-text code {
      background: ${token.colorFillTertiary}; border-radius: 4px; font-family: monospace; }
    .bourse-rich-text-frame .bourse-rich-text pre { padding: 8px; }
  `;

  const heading = (level: 1 | 2 | 3 | 4): void => {
    editor.chain().focus().toggleHeading({ level }).run();
  };

  return (
    <div
      className="bourse-rich-text-frame"
      data-testid={testId}
      style={{
        border: `1px solid ${token.colorBorder}`,
        borderRadius: token.borderRadius,
        background: token.colorBgContainer,
      }}
    >
      <style>{css}</style>
      <div
        role="toolbar"
        aria-label={t('richText.toolbar')}
        style={{
          display: 'flex',
          flexWrap: 'wrap',
          alignItems: 'center',
          gap: 2,
          padding: 4,
          borderBottom: `1px solid ${token.colorBorderSecondary}`,
        }}
      >
        <ToolButton
          title={t('richText.bold')}
          active={state.bold}
          onClick={() => editor.chain().focus().toggleBold().run()}
        >
          <BoldOutlined />
        </ToolButton>
        <ToolButton
          title={t('richText.italic')}
          active={state.italic}
          onClick={() => editor.chain().focus().toggleItalic().run()}
        >
          <ItalicOutlined />
        </ToolButton>
        <ToolButton
          title={t('richText.underline')}
          active={state.underline}
          onClick={() => editor.chain().focus().toggleUnderline().run()}
        >
          <UnderlineOutlined />
        </ToolButton>
        <ToolButton
          title={t('richText.strike')}
          active={state.strike}
          onClick={() => editor.chain().focus().toggleStrike().run()}
        >
          <StrikethroughOutlined />
        </ToolButton>
        <Divider type="vertical" />
        {([1, 2, 3, 4] as const).map((level) => (
          <ToolButton
            key={level}
            title={t('richText.heading', { level })}
            active={state.heading === level}
            onClick={() => heading(level)}
          >
            <span style={{ fontWeight: 600, fontSize: 12 }}>H{level}</span>
          </ToolButton>
        ))}
        <Divider type="vertical" />
        <ToolButton
          title={t('richText.bulletList')}
          active={state.bullet}
          onClick={() => editor.chain().focus().toggleBulletList().run()}
        >
          <UnorderedListOutlined />
        </ToolButton>
        <ToolButton
          title={t('richText.orderedList')}
          active={state.ordered}
          onClick={() => editor.chain().focus().toggleOrderedList().run()}
        >
          <OrderedListOutlined />
        </ToolButton>
        <Divider type="vertical" />
        <LinkButton editor={editor} />
      </div>
      <div style={{ position: 'relative' }}>
        {state.empty && placeholder ? (
          <div
            aria-hidden
            style={{
              position: 'absolute',
              insetInlineStart: 13,
              top: 8,
              color: token.colorTextPlaceholder,
              pointerEvents: 'none',
            }}
          >
            {placeholder}
          </div>
        ) : null}
        <EditorContent editor={editor} />
      </div>
    </div>
  );
}
