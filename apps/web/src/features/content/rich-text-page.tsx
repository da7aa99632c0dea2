/**
 * /pages/richText?key=…: one of the operator's rich-text pages (privacy policy, user agreement,
 * risk disclosure, …) in the app's language, English where it has none.
 */
import { useSearchParams } from 'react-router';
import { formatDateTime } from '@bourse/shared';
import { translate } from '../../i18n';
import { useTranslation } from '../../i18n/react';
import { PageHeader } from '../../components/page-header';
import { EmptyState, ErrorState, ListSkeleton } from '../../components/status-views';
import { ApiError } from '../../api';
import { useRichText } from './api';
import { RichHtml } from './rich-html';
import './content.css';

export default function RichTextPage() {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const key = search.get('key') ?? '';
  const page = useRichText(key);
  const missing =
    key === '' || (page.error instanceof ApiError && page.error.msg === 'hint_notFound');
  return (
    <div className="page" data-testid="rich-text-page">
      <PageHeader title={page.data?.title ?? ''} />
      {missing ? (
        <EmptyState testId="rich-text-missing" title={t('content_pageMissing')} />
      ) : page.isError ? (
        <ErrorState onRetry={() => void page.refetch()} />
      ) : !page.data ? (
        <ListSkeleton rows={6} />
      ) : (
        <article className="page-body content-article">
          <RichHtml html={page.data.content} testId="rich-text-content" />
          <p className="muted content-updated">
            {translate('content_updated', [`\u2066${formatDateTime(page.data.updateTime)}\u2069`])}
          </p>
        </article>
      )}
    </div>
  );
}
