/**
 * The console's site messages (/admin-api/messages…): support and content operators (and admins)
 * compose announcements and personal messages in the app's languages, schedule them, withdraw
 * them and see how many read them; content operators and admins keep the messages' types. Every
 * change is audited.
 */
import {
  consoleMessage,
  consoleMessageListQuery,
  consoleMessageType,
  messageIdBody,
  messageSaveBody,
  messageTypeSaveBody,
} from '../schemas/messages';
import type { OperatorRole } from '../constants';
import { route } from './route';

/** Who writes messages: support (to a user) and content (announcements), and admins. */
const WRITERS = ['support', 'content', 'admin'] as const satisfies readonly OperatorRole[];
/** Who keeps the types. */
const EDITORS = ['content', 'admin'] as const satisfies readonly OperatorRole[];

export const consoleMessagesApi = {
  messages: route({
    method: 'GET',
    path: '/admin-api/messages',
    auth: 'operator',
    roles: WRITERS,
    summary: 'Site messages, newest first, with their read counts; of one type, kind or user.',
    query: consoleMessageListQuery,
    rows: consoleMessage,
  }),
  saveMessage: route({
    method: 'POST',
    path: '/admin-api/messages/save',
    auth: 'operator',
    roles: WRITERS,
    summary:
      'Creates (no id) or changes a message; its content is sanitised. A published one keeps its time.',
    body: messageSaveBody,
    encoding: 'json',
    data: consoleMessage,
    hints: ['hint_notFound', 'hint_userNotFound', 'hint_messageTypeUnknown'],
  }),
  withdrawMessage: route({
    method: 'POST',
    path: '/admin-api/messages/withdraw',
    auth: 'operator',
    roles: WRITERS,
    summary: 'Withdraws a message: nobody reads it any more (`hint_48` when it was already).',
    body: messageIdBody,
    encoding: 'json',
    data: consoleMessage,
    hints: ['hint_notFound'],
  }),
  messageTypes: route({
    method: 'GET',
    path: '/admin-api/messages/types',
    auth: 'operator',
    roles: WRITERS,
    summary: "The messages' types with their names in every language.",
    rows: consoleMessageType,
  }),
  saveMessageType: route({
    method: 'POST',
    path: '/admin-api/messages/types/save',
    auth: 'operator',
    roles: EDITORS,
    summary: 'Creates (no id) or changes a type of messages.',
    body: messageTypeSaveBody,
    encoding: 'json',
    data: consoleMessageType,
    hints: ['hint_notFound'],
  }),
};
