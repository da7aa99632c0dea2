/**
 * /components/m-news/m-news: the news list, newest first, with view counts; with `?id=` one news
 * item (reading it counts a view, once a day per reader).
 */
import { Button } from 'antd-mobile';
import { EyeOutline } from 'antd-mobile-icons';
import { useSearchParams } from 'react-router';
import { formatDateTime } from '@bourse/shared';
import { translate } from '../../i18n';
import { useTranslation } from '../../i18n/react';
import { PageHeader } from '../../components/page-header';
import { EmptyState, ErrorState, ListSkeleton, ListStatus } from '../../components/status-views';
import { ApiError } from '../../api';
import { contentImageSource, useNews, useNewsItem } from './api';
import { NewsItemRow } from './news-row';
import { RichHtml } from './rich-html';
import './content.css';

const NEWS_PAGE_SIZE = 15;

function NewsList() {
  const { t } = useTranslation();
  const news = useNews(NEWS_PAGE_SIZE);
  return (
    <div className="content-list" data-testid="news-list">
      <ListStatus
        list={{ loaded: news.loaded }}
        count={news.rows.length}
        empty={{ testId: 'news-empty', title: t('content_newsEmpty') }}
        skeletonRows={5}
      />
      {news.rows.map((row) => (
        <NewsItemRow key={row.id} row={row} />
      ))}
      {news.hasMore && (
        <Button block fill="none" loading={news.loadingMore} onClick={news.loadMore}>
          {t('content_loadMore')}
        </Button>
      )}
    </div>
  );
}

function NewsItem({ id }: { id: number }) {
  const { t } = useTranslation();
  const item = useNewsItem(id);
  if (item.error instanceof ApiError && item.error.msg === 'hint_notFound')
    return <EmptyState testId="news-missing" title={t('content_pageMissing')} />;
  if (item.isError) return <ErrorState onRetry={() => void item.refetch()} />;
  if (!item.data) return <ListSkeleton rows={6} />;
  const data = item.data;
  return (
    <article className="page-body content-article" data-testid="news-item">
      {data.image && <img className="content-hero" src={contentImageSource(data.image)} alt="" />}
      <h2 className="content-article-title" data-testid="news-title">
        {data.title}
      </h2>
      <p className="muted content-news-meta">
        <time dir="ltr" dateTime={data.publishTime}>
          {formatDateTime(data.publishTime)}
        </time>
        <span className="content-views" data-testid="news-views">
          <EyeOutline aria-hidden="true" /> {translate('content_views', [data.viewCount])}
        </span>
      </p>
      <RichHtml html={data.content} testId="news-content" />
    </article>
  );
}

export default function NewsPage() {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const id = Number(search.get('id') ?? 0);
  const single = Number.isSafeInteger(id) && id > 0;
  return (
    <div className="page" data-testid="news-page">
      <PageHeader title={t('content_news')} />
      {single ? <NewsItem id={id} /> : <NewsList />}
    </div>
  );
}
