/**
 * A site message (/pages/msg/msg-detail?id=): its title, type, time and rich text (the server's
 * sanitised HTML). Opening it marks it read; the unread badges follow.
 */
import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { formatDateTime } from '@bourse/shared';
import { SignedInScreen } from '../../components/signed-in-screen';
import { ErrorState, ListSkeleton } from '../../components/status-views';
import { useTranslation } from '../../i18n/react';
import { markMessageRead, useMessage } from './api';
import './messages.css';

export default function MessageDetailPage() {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const id = Number(search.get('id'));
  const message = useMessage(Number.isInteger(id) ? id : 0);
  const queryClient = useQueryClient();
  const unread = message.data?.readFlag === 0;
  useEffect(() => {
    if (unread) void markMessageRead(queryClient, id).catch(() => undefined);
  }, [unread, id, queryClient]);
  return (
    <SignedInScreen testId="msg-detail-page" title={t('msg_detail')}>
      {message.isPending && id > 0 ? (
        <ListSkeleton />
      ) : !message.data ? (
        <ErrorState onRetry={() => void message.refetch()} />
      ) : (
        <article className="msg-detail">
          <h2 data-testid="msg-title">{message.data.title}</h2>
          <div className="row muted" style={{ fontSize: 12 }}>
            <span className="msg-kind">{message.data.typeName}</span>
            <time dateTime={message.data.createTime} dir="ltr">
              {formatDateTime(message.data.createTime)}
            </time>
          </div>
          <div
            className="msg-html"
            data-testid="msg-content"
            // Sanitised by the server when the operator saved it (lib/rich-text.ts).
            dangerouslySetInnerHTML={{ __html: message.data.content }}
          />
        </article>
      )}
    </SignedInScreen>
  );
}
