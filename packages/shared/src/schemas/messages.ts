/**
 * Site messages (/api/siteMessage: announcements to everyone, personal messages to one user, each
 * of a type, with a title and rich-text content in the app's languages, English the fallback) and
 * notifications (/api/notification: the user's own events, written once by the event: a type,
 * the parameters its translated text takes, and the screen of its object).
 */
import { z } from 'zod';
import { NOTIFICATION_TYPES } from '../constants';
import { intField, optionalInt, optionalIsoTime, optionalText, pageQuery } from './common';
import { languageTexts } from './operators';

/** A message's audience: 1 an announcement to everyone, 2 personal (to one user). */
export const MESSAGE_KIND = { announcement: 1, personal: 2 } as const;

/** The longest title of a message, in characters. */
export const MESSAGE_TITLE_MAX = 120;
/** The longest content of a message, in characters of HTML (before sanitising). */
export const MESSAGE_CONTENT_MAX = 50_000;

export const siteMessageListQuery = pageQuery.extend({
  typeId: optionalInt(1),
  kind: optionalInt(1, 2).describe('1 announcements only, 2 personal messages only.'),
});

/** A site message as its reader sees it, in the reader's language (English when not written). */
export const siteMessage = z.object({
  id: z.number().int(),
  typeId: z.number().int(),
  typeName: z.string(),
  kind: z.number().int().describe('1 announcement, 2 personal.'),
  title: z.string(),
  content: z.string().describe('Sanitised HTML.'),
  readFlag: z.number().int().describe('1 read, 0 not.'),
  createTime: z.string().describe('When it was published (ISO 8601).'),
});
export type SiteMessage = z.output<typeof siteMessage>;

export const siteMessageDetailQuery = z.object({ id: intField(1) });

export const siteMessageType = z.object({
  id: z.number().int(),
  name: z.string(),
  sort: z.number().int(),
});
export type SiteMessageType = z.output<typeof siteMessageType>;

export const markReadBody = z.object({ id: intField(1) });

export const markReadResult = z.object({
  id: z.number().int(),
  readFlag: z.number().int(),
});

/** Where a notification leads: a screen of the app (its route name) and its query. */
export const notificationLink = z.object({
  route: z.string(),
  query: z.record(z.string(), z.string()),
});

export const notification = z.object({
  id: z.number().int(),
  type: z.enum(NOTIFICATION_TYPES),
  params: z.array(z.string()).describe('The `{0}`, `{1}`… of the text `notify_<type>`.'),
  link: notificationLink.nullable(),
  readFlag: z.number().int(),
  createTime: z.string(),
});
export type Notification = z.output<typeof notification>;

export const notificationReadBody = z.object({
  id: optionalInt(1).describe('The notification; absent: every notification of the user.'),
});

export const notificationReadResult = z.object({
  changed: z.number().int().describe('How many were unread before.'),
});

export const notificationUnread = z.object({ count: z.number().int().nonnegative() });

// ---------------------------------------------------------------- console

export const consoleMessageListQuery = pageQuery.extend({
  typeId: optionalInt(1),
  kind: optionalInt(1, 2),
  userId: optionalInt(1),
});

/** A message as operators compose it: every language's texts, its audience and how many read it. */
export const consoleMessage = z.object({
  id: z.number().int(),
  typeId: z.number().int(),
  typeName: z.string(),
  kind: z.number().int(),
  userId: z.number().int().nullable(),
  userAccount: z.string().nullable(),
  title: z.record(z.string(), z.string()),
  content: z.record(z.string(), z.string()),
  publishTime: z.string(),
  createTime: z.string(),
  published: z.boolean().describe('Its publishing time has come: users see it.'),
  withdrawn: z.boolean(),
  readCount: z.number().int(),
  audience: z.number().int().describe('Users who can read it: 1 for a personal message.'),
});
export type ConsoleMessage = z.output<typeof consoleMessage>;

export const messageSaveBody = z
  .object({
    id: optionalInt(1).describe('The message to change; absent: a new one.'),
    typeId: intField(1),
    kind: intField(1, 2),
    userAccount: optionalText(128).describe(
      'A personal message: its reader, by account (email or phone) or user id.',
    ),
    title: languageTexts(MESSAGE_TITLE_MAX),
    content: languageTexts(MESSAGE_CONTENT_MAX, 'multiLine'),
    publishTime: optionalIsoTime.describe('ISO 8601; absent or past: at once.'),
  })
  .superRefine((body, context) => {
    if (!body.title)
      context.addIssue({ code: 'custom', path: ['title'], message: 'hint_langEnglishRequired' });
    if (!body.content)
      context.addIssue({ code: 'custom', path: ['content'], message: 'hint_langEnglishRequired' });
    if (body.kind === MESSAGE_KIND.personal && !body.userAccount?.trim())
      context.addIssue({ code: 'custom', path: ['userAccount'], message: 'hint_paramRequired' });
  });
export type MessageSaveBody = z.output<typeof messageSaveBody>;

export const messageIdBody = z.object({ id: intField(1) });

export const consoleMessageType = z.object({
  id: z.number().int(),
  name: z.record(z.string(), z.string()),
  sort: z.number().int(),
  enabled: z.boolean(),
  messageCount: z.number().int(),
});
export type ConsoleMessageType = z.output<typeof consoleMessageType>;

export const messageTypeSaveBody = z
  .object({
    id: optionalInt(1),
    name: languageTexts(40),
    sort: z.preprocess((v) => (v === '' || v === undefined ? 0 : v), intField(-10_000, 10_000)),
    enabled: z.boolean().default(true),
  })
  .superRefine((body, context) => {
    if (!body.name)
      context.addIssue({ code: 'custom', path: ['name'], message: 'hint_langEnglishRequired' });
  });
export type MessageTypeSaveBody = z.output<typeof messageTypeSaveBody>;
