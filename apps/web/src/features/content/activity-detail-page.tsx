/** /pages/activity/detail?id=…: one activity, its picture, status, time window and content. */
import { useSearchParams } from 'react-router';
import { useTranslation } from '../../i18n/react';
import { PageHeader } from '../../components/page-header';
import { EmptyState, ErrorState, ListSkeleton } from '../../components/status-views';
import { ApiError } from '../../api';
import { contentImageSource, useActivity } from './api';
import { ActivityStatusTag, ActivityWindow } from './activity-parts';
import { RichHtml } from './rich-html';
import './content.css';

export default function ActivityDetailPage() {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const id = Number(search.get('id') ?? 0);
  const activity = useActivity(Number.isSafeInteger(id) ? id : 0);
  const missing =
    !(id > 0) || (activity.error instanceof ApiError && activity.error.msg === 'hint_notFound');
  const data = activity.data;
  return (
    <div className="page" data-testid="activity-detail-page">
      <PageHeader title={t('area_activity')} />
      {missing ? (
        <EmptyState testId="activity-missing" title={t('content_pageMissing')} />
      ) : activity.isError ? (
        <ErrorState onRetry={() => void activity.refetch()} />
      ) : !data ? (
        <ListSkeleton rows={6} />
      ) : (
        <article className="page-body content-article">
          {data.image && (
            <img className="content-hero" src={contentImageSource(data.image)} alt="" />
          )}
          <h2 className="content-article-title" data-testid="activity-title">
            {data.title}
          </h2>
          <div className="content-article-meta">
            <ActivityStatusTag status={data.status} />
            <ActivityWindow startTime={data.startTime} endTime={data.endTime} />
          </div>
          <RichHtml html={data.content} testId="activity-content" />
        </article>
      )}
    </div>
  );
}
