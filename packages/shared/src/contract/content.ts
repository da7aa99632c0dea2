/**
 * Authored content the app reads (issue 21): Q&A, rich-text pages by key, activities, news (views
 * counted), the scrolling notice and content images. All public: a visitor reads them too. Texts
 * come in the request's language, English where an entry has none in it; only visible entries
 * (activities: not ended) are listed.
 */
import {
  activityDetail,
  activityListQuery,
  activityRow,
  contentIdQuery,
  contentImageQuery,
  newsDetail,
  newsListQuery,
  newsRow,
  noticeList,
  qaList,
  qaListQuery,
  richTextPage,
  richTextQuery,
} from '../schemas/content';
import { route } from './route';

export const contentApi = {
  qaList: route({
    method: 'GET',
    path: '/api/qa/list',
    auth: 'public',
    summary:
      'The visible questions and answers by category, in order; with `keyword`, only those whose question or answer contains it.',
    query: qaListQuery,
    data: qaList,
  }),
  richText: route({
    method: 'GET',
    path: '/api/richText/detail',
    auth: 'public',
    summary:
      'A rich-text page by key (privacyPolicy, registrationAgreement, riskDisclosure, tradingNotice, referralRules, welfareRules, companyProfile, or one an operator added).',
    query: richTextQuery,
    data: richTextPage,
    hints: ['hint_notFound'],
  }),
  activityList: route({
    method: 'GET',
    path: '/api/activity/list',
    auth: 'public',
    summary:
      'Visible activities that have not ended (running ones first, then upcoming), each with its status in its time window.',
    query: activityListQuery,
    rows: activityRow,
  }),
  activityDetail: route({
    method: 'GET',
    path: '/api/activity/detail',
    auth: 'public',
    summary: 'One visible activity with its content (an ended one too, marked `ended`).',
    query: contentIdQuery,
    data: activityDetail,
    hints: ['hint_notFound'],
  }),
  newsList: route({
    method: 'GET',
    path: '/api/news/list',
    auth: 'public',
    summary: 'Published news, newest first, with their view counts.',
    query: newsListQuery,
    rows: newsRow,
  }),
  newsDetail: route({
    method: 'GET',
    path: '/api/news/detail',
    auth: 'optional',
    summary:
      'One news item with its content; counts a view, once a day per user (signed out: per client address).',
    query: contentIdQuery,
    data: newsDetail,
    hints: ['hint_notFound'],
  }),
  noticeList: route({
    method: 'GET',
    path: '/api/notice/list',
    auth: 'public',
    summary: 'The lines of the scrolling notice, in order.',
    data: noticeList,
  }),
  image: route({
    method: 'GET',
    path: '/api/content/image',
    auth: 'public',
    summary:
      "An activity's, news item's or banner's image (a JPEG the server re-encoded); its URL names its hash.",
    query: contentImageQuery,
    file: true,
    contentType: 'image/jpeg',
    hints: ['hint_notFound'],
  }),
};
