/**
 * Customer service (`/api/service`, PRODUCT section 3; issue 21): a live chat between a user, or a
 * signed-out visitor, and the support operators. A conversation is one person's with the support
 * desk; its messages are text or one image (a JPEG or PNG the server re-encodes), each side's
 * read position gives the read receipts. Visitors hold a token the server issued
 * (`/api/service/visitor`) and send it with each call. The console works the inbox (new, mine,
 * waiting, closed), assigns conversations, keeps canned replies per language and the external
 * lines (a web page, Telegram, WhatsApp) the service page lists.
 */
import { z } from 'zod';
import { LANGUAGE_KEYS } from '../constants';
import { intField, optionalInt, pageQuery, requestId, safeString, text } from './common';

const id = intField(1, 2_147_483_647);
const emptyToUndefined = (value: unknown) => (value === '' || value === null ? undefined : value);

/** A visitor's token: 43 base64url characters (256 random bits) as the server issued it. */
export const visitorToken = safeString(64)
  .min(32)
  .regex(/^[A-Za-z0-9_-]+$/, { error: 'hint_visitorUnknown' });

/** Who the calls of the app act for: the signed-in user, else the visitor of this token. */
const asVisitor = { visitorToken: z.preprocess(emptyToUndefined, visitorToken.optional()) };

/** The longest message text, in UTF-16 units. */
export const SERVICE_TEXT_MAX = 2000;
/**
 * Days a visitor identity that never wrote (or whose conversation went to an account) is kept;
 * then it is forgotten and the app asks for a new one (`hint_visitorUnknown`).
 */
export const SERVICE_VISITOR_KEEP_DAYS = 30;
/** Messages read at once (a page back through the history). */
export const SERVICE_PAGE_MAX = 50;

/** A chat image: base64 or a data URL of a JPEG or PNG, 2 MiB at most once decoded. */
export const serviceImage = safeString(3 * 1024 * 1024);

export const serviceVisitor = z.object({
  visitorToken: z.string().describe('Kept on the device and sent with every service call.'),
});

export const serviceMessagesQuery = z.object({
  ...asVisitor,
  beforeId: optionalInt(1, 2_147_483_647),
  pageSize: z.preprocess(emptyToUndefined, intField(1, SERVICE_PAGE_MAX).default(20)),
});
export type ServiceMessagesQuery = z.output<typeof serviceMessagesQuery>;

export const SERVICE_SENDERS = ['user', 'operator'] as const;

/** One message of a conversation. */
export const serviceMessage = z.object({
  id: z.number().int(),
  conversationId: z.number().int(),
  sender: z.enum(SERVICE_SENDERS),
  operatorName: z
    .string()
    .nullable()
    .describe(
      "The operator who wrote it, in the console only: the app's reads give null (the desk speaks as one; an operator's username signs in to the console).",
    ),
  content: z.string().nullable(),
  /** Whether the message is an image (read through the image call by its id). */
  image: z.boolean(),
  imageWidth: z.number().int().nullable(),
  imageHeight: z.number().int().nullable(),
  /** Whether the other side has read it. */
  read: z.boolean(),
  createTime: z.string(),
});
export type ServiceMessage = z.output<typeof serviceMessage>;

export const serviceSendBody = z
  .object({
    ...asVisitor,
    content: z.preprocess(
      (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
      text(SERVICE_TEXT_MAX, 1, 'multiLine').optional(),
    ),
    image: z.preprocess(emptyToUndefined, serviceImage.optional()),
    requestId,
  })
  .superRefine((body, context) => {
    if (!body.content && !body.image)
      context.addIssue({ code: 'custom', path: ['content'], message: 'hint_serviceMessageEmpty' });
    if (body.content && body.image)
      context.addIssue({ code: 'custom', path: ['image'], message: 'hint_paramInvalid' });
  });
export type ServiceSendBody = z.output<typeof serviceSendBody>;

export const serviceReadBody = z.object({ ...asVisitor, upToId: id });
export const serviceTypingBody = z.object({ ...asVisitor });
export const serviceImageQuery = z.object({ ...asVisitor, id });

/** Where the reader's side stands: the other side's read position. */
export const serviceReadState = z.object({
  conversationId: z.number().int().nullable(),
  /** The last of the reader's own messages the other side has read (0: none). */
  readUpTo: z.number().int(),
});

export const SERVICE_LINE_KINDS = ['web', 'telegram', 'whatsapp'] as const;
export type ServiceLineKind = (typeof SERVICE_LINE_KINDS)[number];

/** Hosts each kind of external line may point at (https only; a web line any host). */
export const SERVICE_LINE_HOSTS: Record<ServiceLineKind, readonly string[] | null> = {
  web: null,
  telegram: ['t.me', 'telegram.me'],
  whatsapp: ['wa.me', 'api.whatsapp.com'],
};

/** Whether `url` is an https address a line of `kind` may open. */
export function isServiceLineUrl(kind: ServiceLineKind, url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol !== 'https:' || parsed.username || parsed.password) return false;
  const hosts = SERVICE_LINE_HOSTS[kind];
  return hosts === null ? parsed.hostname.includes('.') : hosts.includes(parsed.hostname);
}

export const serviceLine = z.object({
  id: z.number().int(),
  kind: z.enum(SERVICE_LINE_KINDS),
  label: z.string(),
  url: z.string(),
});
export type ServiceLine = z.output<typeof serviceLine>;

// ---------------------------------------------------------------- console

export const CONVERSATION_STATES = ['new', 'mine', 'waiting', 'closed'] as const;
export type ConversationState = (typeof CONVERSATION_STATES)[number];

export const conversationListQuery = pageQuery.extend({
  state: z.enum(CONVERSATION_STATES, { error: 'hint_paramInvalid' }),
});
export type ConversationListQuery = z.output<typeof conversationListQuery>;

/** A conversation as the inbox lists it. */
export const serviceConversation = z.object({
  id: z.number().int(),
  /** The user's id; null for a visitor. */
  userId: z.number().int().nullable(),
  userAccount: z.string().nullable(),
  visitorId: z.number().int().nullable(),
  /** The language the person writes in (the app's), which picks the canned replies. */
  language: z.string(),
  closed: z.boolean(),
  operatorId: z.number().int().nullable(),
  operatorName: z.string().nullable(),
  lastMessage: z.string().nullable(),
  lastSender: z.enum(SERVICE_SENDERS).nullable(),
  lastMessageTime: z.string().nullable(),
  /** The person's messages no operator has read yet. */
  unread: z.number().int(),
  /** The last of the operators' messages the person has read (0: none). */
  personReadUpTo: z.number().int(),
  createTime: z.string(),
});
export type ServiceConversation = z.output<typeof serviceConversation>;

export const conversationIdQuery = z.object({ id });
export const conversationIdBody = z.object({ id });
export const conversationAssignBody = z.object({ id, operatorId: id });

export const consoleMessagesQuery = z.object({
  id,
  beforeId: optionalInt(1, 2_147_483_647),
  pageSize: z.preprocess(emptyToUndefined, intField(1, SERVICE_PAGE_MAX).default(20)),
});

export const consoleSendBody = z
  .object({
    conversationId: id,
    content: z.preprocess(
      (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
      text(SERVICE_TEXT_MAX, 1, 'multiLine').optional(),
    ),
    image: z.preprocess(emptyToUndefined, serviceImage.optional()),
    requestId,
  })
  .superRefine((body, context) => {
    if (!body.content && !body.image)
      context.addIssue({ code: 'custom', path: ['content'], message: 'hint_serviceMessageEmpty' });
    if (body.content && body.image)
      context.addIssue({ code: 'custom', path: ['image'], message: 'hint_paramInvalid' });
  });
export type ConsoleSendBody = z.output<typeof consoleSendBody>;

export const consoleReadBody = z.object({ conversationId: id, upToId: id });
export const consoleTypingBody = z.object({ conversationId: id });
export const consoleImageQuery = z.object({ id });

/** An operator who may be given conversations (support or admin, enabled). */
export const serviceAgent = z.object({ operatorId: z.number().int(), username: z.string() });

const languageKey = z.enum(LANGUAGE_KEYS as [string, ...string[]], { error: 'hint_langInvalid' });

/** A canned reply: a title operators pick it by and its text, in one language. */
export const cannedReply = z.object({
  id: z.number().int(),
  title: z.string(),
  language: z.string(),
  content: z.string(),
  updateTime: z.string(),
});
export type CannedReply = z.output<typeof cannedReply>;

export const cannedReplySaveBody = z.object({
  /** Absent: a new reply. */
  id: optionalInt(1, 2_147_483_647),
  title: text(64),
  language: languageKey,
  content: text(SERVICE_TEXT_MAX, 1, 'multiLine'),
});
export type CannedReplySaveBody = z.output<typeof cannedReplySaveBody>;

export const serviceLineSaveBody = z
  .object({
    id: optionalInt(1, 2_147_483_647),
    kind: z.enum(SERVICE_LINE_KINDS, { error: 'hint_paramInvalid' }),
    label: text(64),
    url: text(512),
    sort: z.preprocess(emptyToUndefined, intField(0, 9999).default(0)),
    enabled: z.preprocess(
      (value) => (value === 'true' ? true : value === 'false' ? false : value),
      z.boolean().default(true),
    ),
  })
  .superRefine((body, context) => {
    if (!isServiceLineUrl(body.kind, body.url))
      context.addIssue({ code: 'custom', path: ['url'], message: 'hint_serviceLineUrl' });
  });
export type ServiceLineSaveBody = z.output<typeof serviceLineSaveBody>;

/** A line as the console edits it. */
export const serviceLineRow = serviceLine.extend({
  sort: z.number().int(),
  enabled: z.boolean(),
});
export type ServiceLineRow = z.output<typeof serviceLineRow>;

export const idOnlyBody = z.object({ id });
