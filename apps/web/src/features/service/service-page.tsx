/**
 * Customer service (/pages/service/service): a live chat with the support desk, signed in or as a
 * guest. The conversation's newest messages first, older ones as the user scrolls up (or taps for
 * them); the desk's replies, read receipts and typing arrive on `/ws` as they happen, and what was
 * answered while the user was away is there when they come back. Text, or a picture compressed as
 * the spec says (width 800, JPEG 0.7) and re-encoded by the server; pictures open full screen.
 * The desk's external lines (a web page, Telegram, WhatsApp) open in a new tab.
 */
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Button, ImageViewer, SpinLoading, TextArea } from 'antd-mobile';
import { PictureOutline, SendOutline } from 'antd-mobile-icons';
import { formatDateTime, SERVICE_TEXT_MAX } from '@bourse/shared';
import { PageHeader } from '../../components/page-header';
import { ErrorState, ListSkeleton } from '../../components/status-views';
import { useImagePick } from '../../hooks/use-image-pick';
import { useTranslation } from '../../i18n/react';
import { paths } from '../../config/paths';
import { navigateTo } from '../../lib/navigation';
import { fetchImage, useServiceLines, type ServiceMessage } from './api';
import { useChat, type PendingMessage } from './use-chat';
import './service.css';

/** `HH:mm` today, `yyyy/MM/dd HH:mm` before. */
function messageTime(value: string): string {
  const full = formatDateTime(value);
  return full.slice(0, 10) === formatDateTime(Date.now()).slice(0, 10) ? full.slice(11) : full;
}

/** A picture of the conversation, read with the person's identity, full screen on a tap. */
function ChatImage({ message }: { message: ServiceMessage }) {
  const { t } = useTranslation();
  const [url, setUrl] = useState<string>();
  const [open, setOpen] = useState(false);
  useEffect(() => {
    let objectUrl: string | undefined;
    let cancelled = false;
    void fetchImage(message.id)
      .then((blob) => {
        if (cancelled) return;
        objectUrl = URL.createObjectURL(blob);
        setUrl(objectUrl);
      })
      .catch(() => undefined);
    return () => {
      cancelled = true;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [message.id]);
  const ratio =
    message.imageWidth && message.imageHeight
      ? `${message.imageWidth} / ${message.imageHeight}`
      : undefined;
  return (
    <>
      <button
        type="button"
        className="svc-image"
        style={{ aspectRatio: ratio }}
        onClick={() => url && setOpen(true)}
        data-testid="service-image"
      >
        {url ? <img src={url} alt={t('service_imageAlt')} /> : <SpinLoading />}
      </button>
      {url && <ImageViewer image={url} visible={open} onClose={() => setOpen(false)} />}
    </>
  );
}

function Bubble({ message }: { message: ServiceMessage }) {
  const { t } = useTranslation();
  const own = message.sender === 'user';
  return (
    <div
      className={`svc-row ${own ? 'svc-own' : 'svc-desk'}`}
      data-testid="service-message"
      data-sender={message.sender}
      data-id={message.id}
    >
      {!own && <div className="svc-author">{message.operatorName ?? t('service_support')}</div>}
      <div className="svc-bubble">
        {message.image ? (
          <ChatImage message={message} />
        ) : (
          <div className="svc-text" dir="auto">
            {message.content}
          </div>
        )}
      </div>
      <div className="svc-meta">
        <span>{messageTime(message.createTime)}</span>
        {own && (
          <span data-testid="service-receipt" className={message.read ? 'svc-read' : undefined}>
            {t(message.read ? 'service_read' : 'service_delivered')}
          </span>
        )}
      </div>
    </div>
  );
}

function PendingBubble({
  message,
  onRetry,
}: {
  message: PendingMessage;
  onRetry: (message: PendingMessage) => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="svc-row svc-own svc-pending" data-testid="service-pending">
      <div className="svc-bubble">
        {message.image ? (
          <img className="svc-image" src={message.image} alt={t('service_imageAlt')} />
        ) : (
          <div className="svc-text" dir="auto">
            {message.content}
          </div>
        )}
      </div>
      <div className="svc-meta">
        {message.failed ? (
          <>
            <span className="svc-failed">{t('service_failed')}</span>
            <button type="button" className="svc-link" onClick={() => onRetry(message)}>
              {t('common_retry')}
            </button>
          </>
        ) : (
          <SpinLoading style={{ '--size': '12px' }} />
        )}
      </div>
    </div>
  );
}

function Lines() {
  const { t } = useTranslation();
  const lines = useServiceLines();
  if (!lines.data?.length) return null;
  return (
    <nav className="svc-lines" aria-label={t('service_lines')} data-testid="service-lines">
      <span className="svc-lines-title">{t('service_lines')}</span>
      {lines.data.map((line) => (
        <a
          key={line.id}
          className={`svc-line svc-line-${line.kind}`}
          href={line.url}
          target="_blank"
          rel="noopener noreferrer"
        >
          {line.label}
        </a>
      ))}
    </nav>
  );
}

export default function ServicePage() {
  const { t } = useTranslation();
  const chat = useChat();
  const [text, setText] = useState('');
  const list = useRef<HTMLDivElement>(null);
  /** Where the list was before older messages came in on top, to keep the reader's place. */
  const anchor = useRef<{ height: number; top: number } | null>(null);
  const atBottom = useRef(true);
  const image = useImagePick((picked) => void chat.send({ image: picked }));

  const count = chat.messages.length + chat.pending.length;
  const lastId = chat.messages.at(-1)?.id;
  useLayoutEffect(() => {
    const element = list.current;
    if (!element) return;
    if (anchor.current) {
      element.scrollTop = anchor.current.top + (element.scrollHeight - anchor.current.height);
      anchor.current = null;
    } else if (atBottom.current) {
      element.scrollTop = element.scrollHeight;
    }
  }, [count, lastId, chat.deskTyping, chat.loaded]);

  async function older() {
    const element = list.current;
    if (element) anchor.current = { height: element.scrollHeight, top: element.scrollTop };
    await chat.loadOlder();
  }

  function onScroll() {
    const element = list.current;
    if (!element) return;
    atBottom.current = element.scrollHeight - element.scrollTop - element.clientHeight < 48;
    if (element.scrollTop < 40 && chat.hasOlder && !chat.loadingOlder) void older();
  }

  function submit() {
    const content = text.trim();
    if (!content) return;
    setText('');
    atBottom.current = true;
    void chat.send({ content });
  }

  return (
    <div className="page svc-page" data-testid="service-page">
      <PageHeader title={t('page_service')} />
      <Lines />
      {!chat.signedIn && (
        <div className="svc-guest" data-testid="service-guest">
          <span>{t('service_guestNote')}</span>
          <button
            type="button"
            className="svc-link"
            onClick={() => navigateTo('login', { redirect: paths.service })}
          >
            {t('account_login')}
          </button>
        </div>
      )}
      <div className="svc-list" ref={list} onScroll={onScroll} data-testid="service-list">
        {!chat.loaded ? (
          chat.failed ? (
            <ErrorState onRetry={() => void chat.loadNewest()} />
          ) : (
            <ListSkeleton rows={3} />
          )
        ) : (
          <>
            {chat.hasOlder ? (
              <button
                type="button"
                className="svc-older"
                onClick={() => void older()}
                disabled={chat.loadingOlder}
                data-testid="service-older"
              >
                {chat.loadingOlder ? <SpinLoading style={{ '--size': '14px' }} /> : null}
                {t('service_loadOlder')}
              </button>
            ) : (
              count > 0 && <div className="svc-start">{t('service_start')}</div>
            )}
            {count === 0 && (
              <div className="svc-empty" data-testid="service-empty">
                {t('service_empty')}
              </div>
            )}
            {chat.messages.map((message) => (
              <Bubble key={message.id} message={message} />
            ))}
            {chat.pending.map((message) => (
              <PendingBubble key={message.requestId} message={message} onRetry={chat.retry} />
            ))}
            {chat.deskTyping && (
              <div className="svc-typing" data-testid="service-typing" aria-live="polite">
                {t('service_typing')}
              </div>
            )}
          </>
        )}
      </div>
      <form
        className="svc-composer"
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <label className="svc-pick" aria-label={t('service_pickImage')}>
          <PictureOutline />
          <input
            type="file"
            accept="image/jpeg,image/png"
            onChange={(event) => void image.pick(event)}
            disabled={image.busy}
            data-testid="service-image-input"
          />
        </label>
        <TextArea
          className="svc-input"
          value={text}
          onChange={(value) => {
            setText(value);
            if (value.trim()) chat.typing();
          }}
          placeholder={t('service_placeholder')}
          autoSize={{ minRows: 1, maxRows: 4 }}
          maxLength={SERVICE_TEXT_MAX}
          rows={1}
          onEnterPress={(event) => {
            if (!event.shiftKey) {
              event.preventDefault();
              submit();
            }
          }}
          data-testid="service-input"
        />
        <Button
          type="submit"
          color="primary"
          size="small"
          disabled={!text.trim()}
          aria-label={t('service_send')}
          data-testid="service-send"
        >
          <SendOutline className="svc-send-icon" />
        </Button>
      </form>
    </div>
  );
}
