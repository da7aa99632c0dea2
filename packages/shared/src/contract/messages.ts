/**
 * The calls of site messages (/api/siteMessage, /api/siteMessageType: announcements and personal
 * messages in the reader's language) and of notifications (/api/notification: the user's own
 * events). The unread count of both is accountApi.unreadMessageCount (notReadMessageCount).
 */
import {
  markReadBody,
  markReadResult,
  notification,
  notificationReadBody,
  notificationReadResult,
  notificationUnread,
  siteMessage,
  siteMessageDetailQuery,
  siteMessageListQuery,
  siteMessageType,
} from '../schemas/messages';
import { pageQuery } from '../schemas/common';
import { route } from './route';

export const messagesApi = {
  messageList: route({
    method: 'GET',
    path: '/api/siteMessage/list',
    auth: 'user',
    summary:
      'The site messages the user can read, newest first: announcements published since they joined and their own; of one type or kind when given.',
    query: siteMessageListQuery,
    rows: siteMessage,
  }),
  messageDetail: route({
    method: 'GET',
    path: '/api/siteMessage/detail',
    auth: 'user',
    summary: 'One site message the user can read (not marked read: markReadFlag does that).',
    query: siteMessageDetailQuery,
    data: siteMessage,
    hints: ['hint_notFound'],
  }),
  messageTypes: route({
    method: 'GET',
    path: '/api/siteMessageType/list',
    auth: 'user',
    summary: "The messages' types, in the reader's language, in their order.",
    rows: siteMessageType,
  }),
  markRead: route({
    method: 'POST',
    path: '/api/siteMessage/markReadFlag',
    auth: 'user',
    summary: 'Marks a site message read; marking it again changes nothing.',
    body: markReadBody,
    data: markReadResult,
    hints: ['hint_notFound'],
  }),
  notificationList: route({
    method: 'GET',
    path: '/api/notification/list',
    auth: 'user',
    summary: "The user's notifications, newest first.",
    query: pageQuery,
    rows: notification,
  }),
  notificationRead: route({
    method: 'POST',
    path: '/api/notification/markRead',
    auth: 'user',
    summary: 'Marks one notification read, or all of them when no id is given.',
    body: notificationReadBody,
    data: notificationReadResult,
    hints: ['hint_notFound'],
  }),
  notificationUnread: route({
    method: 'GET',
    path: '/api/notification/unreadCount',
    auth: 'user',
    summary: 'How many notifications the user has not read.',
    data: notificationUnread,
  }),
};
