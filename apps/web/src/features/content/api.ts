/**
 * The content calls (contentApi): Q&A, rich-text pages, activities, news and the scrolling
 * notice. All public: a signed-out visitor reads them too. Texts arrive in the app's language
 * (English where an operator wrote none in it); rich bodies are HTML the server sanitised.
 */
import {
  contentApi as routes,
  type ActivityDetail,
  type NewsDetail,
  type NoticeRow,
  type QaGroup,
  type RichTextPage,
} from '@bourse/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api';
import { usePagedRows } from '../../hooks/use-paged-rows';
import { baseUrl } from '../../lib/lines';

export type { ActivityRow, NewsRow, NoticeRow, QaGroup } from '@bourse/shared';

export const contentKeys = {
  qa: (keyword: string) => ['qaList', keyword] as const,
  richText: (key: string) => ['richText', key] as const,
  activities: ['activityList'] as const,
  activity: (id: number) => ['activityDetail', id] as const,
  news: (pageSize: number) => ['newsList', pageSize] as const,
  newsItem: (id: number) => ['newsDetail', id] as const,
  notices: ['noticeList'] as const,
};

/** Where the browser loads a content image from: the server answers a path on its API line. */
export function contentImageSource(image: string): string {
  return image.startsWith('/') ? `${baseUrl()}${image}` : image;
}

export function useQaList(keyword: string) {
  return useQuery({
    queryKey: contentKeys.qa(keyword),
    queryFn: (): Promise<QaGroup[]> => api.call(routes.qaList, keyword ? { keyword } : {}),
    placeholderData: (previous) => previous,
  });
}

export function useRichText(key: string) {
  return useQuery({
    queryKey: contentKeys.richText(key),
    queryFn: (): Promise<RichTextPage> => api.call(routes.richText, { key }),
    enabled: key !== '',
    retry: false,
  });
}

export const ACTIVITY_PAGE_SIZE = 10;

export function useActivities() {
  return usePagedRows({
    queryKey: contentKeys.activities,
    fetchPage: (pageNum) =>
      api.call(routes.activityList, { pageNum, pageSize: ACTIVITY_PAGE_SIZE }),
    pageSize: ACTIVITY_PAGE_SIZE,
  });
}

export function useActivity(id: number) {
  return useQuery({
    queryKey: contentKeys.activity(id),
    queryFn: (): Promise<ActivityDetail> => api.call(routes.activityDetail, { id }),
    enabled: id > 0,
    retry: false,
  });
}

export function useNews(pageSize: number) {
  return usePagedRows({
    queryKey: contentKeys.news(pageSize),
    fetchPage: (pageNum) => api.call(routes.newsList, { pageNum, pageSize }),
    pageSize,
  });
}

/** A news item; reading it counts a view (once a day per reader, on the server). */
export function useNewsItem(id: number) {
  return useQuery({
    queryKey: contentKeys.newsItem(id),
    queryFn: (): Promise<NewsDetail> => api.call(routes.newsDetail, { id }),
    enabled: id > 0,
    retry: false,
  });
}

export function useNotices() {
  return useQuery({
    queryKey: contentKeys.notices,
    queryFn: (): Promise<NoticeRow[]> => api.call(routes.noticeList),
    staleTime: 60_000,
  });
}
