/**
 * Authored content (issue 21): Q&A (questions grouped in categories), rich-text pages by key,
 * activities with a time window, news with counted views, the scrolling notice and the home
 * banners. Operators write each in the 19 languages (English is the fallback of every other);
 * rich texts are cleaned by the server's sanitiser before they are stored.
 */
import { z } from 'zod';
import { LANGUAGE_KEYS, type LanguageKey } from '../constants';
import {
  intField,
  optionalInt,
  optionalIsoTime,
  optionalText,
  pageQuery,
  safeString,
} from './common';
import { proofImage } from './wallet';

/** What an entry is; one table holds them all. */
export const CONTENT_KINDS = [
  'qaCategory',
  'qa',
  'page',
  'activity',
  'news',
  'notice',
  'banner',
] as const;
export type ContentKind = (typeof CONTENT_KINDS)[number];

/** Kinds whose body is rich text (HTML, sanitised); the others' body is plain text or empty. */
export const RICH_CONTENT_KINDS: readonly ContentKind[] = ['qa', 'page', 'activity', 'news'];
/** Kinds that may carry an uploaded image. */
export const IMAGE_CONTENT_KINDS: readonly ContentKind[] = ['activity', 'news', 'banner'];

/** The rich-text pages the app links to; operators may add pages of other keys. */
export const RICH_TEXT_KEYS = [
  'privacyPolicy',
  'registrationAgreement',
  'riskDisclosure',
  'tradingNotice',
  'referralRules',
  'welfareRules',
  'companyProfile',
] as const;
export type RichTextKey = (typeof RICH_TEXT_KEYS)[number];

/** A page key: a letter, then letters, digits or `_` (at most 40). */
export const richTextKey = safeString(40).regex(/^[A-Za-z][A-Za-z0-9_]{0,39}$/, {
  error: 'hint_paramInvalid',
});

/** An activity's place in its time window. */
export const ACTIVITY_STATUSES = ['upcoming', 'ongoing', 'ended'] as const;
export type ActivityStatus = (typeof ACTIVITY_STATUSES)[number];

/** Longest title (a question, a headline, a notice line). */
export const CONTENT_TITLE_MAX = 200;
/** Longest plain body (a banner's line); rich bodies are bounded by the server's sanitiser. */
export const CONTENT_PLAIN_MAX = 500;
/** An upper bound of any body on the wire, before the sanitiser's own (translated) limit. */
const CONTENT_BODY_WIRE_MAX = 400_000;

const id = intField(1);

// ---------------------------------------------------------------- the app's calls

export const qaListQuery = z.object({ keyword: optionalText(50) });
export const richTextQuery = z.object({ key: richTextKey });
export const contentIdQuery = z.object({ id });
export const contentImageQuery = z.object({ id, v: optionalText(64) });
export const activityListQuery = pageQuery;
export const newsListQuery = pageQuery;

export const qaItem = z.object({
  id: z.number(),
  question: z.string(),
  answer: z.string().describe('Sanitised HTML.'),
});
export const qaGroup = z.object({
  id: z.number().describe('The category (0: questions without one).'),
  title: z.string(),
  items: z.array(qaItem),
});
export type QaGroup = z.output<typeof qaGroup>;
export const qaList = z.array(qaGroup);

export const richTextPage = z.object({
  key: z.string(),
  title: z.string(),
  content: z.string().describe('Sanitised HTML.'),
  updateTime: z.string().describe('ISO 8601.'),
});
export type RichTextPage = z.output<typeof richTextPage>;

export const activityRow = z.object({
  id: z.number(),
  title: z.string(),
  summary: z.string().describe('The start of the content as plain text.'),
  image: z.string().describe("The image's URL (a path on the API line), or ''."),
  startTime: z.string().nullable(),
  endTime: z.string().nullable(),
  status: z.enum(ACTIVITY_STATUSES),
});
export type ActivityRow = z.output<typeof activityRow>;
export const activityDetail = activityRow.extend({ content: z.string() });
export type ActivityDetail = z.output<typeof activityDetail>;

export const newsRow = z.object({
  id: z.number(),
  title: z.string(),
  summary: z.string(),
  image: z.string(),
  publishTime: z.string(),
  viewCount: z.number().describe('Views counted once per user (or visitor address) a day.'),
});
export type NewsRow = z.output<typeof newsRow>;
export const newsDetail = newsRow.extend({ content: z.string() });
export type NewsDetail = z.output<typeof newsDetail>;

export const noticeRow = z.object({
  id: z.number(),
  text: z.string(),
  route: z.string().describe("The app's route it opens, or ''."),
});
export type NoticeRow = z.output<typeof noticeRow>;
export const noticeList = z.array(noticeRow);

// ---------------------------------------------------------------- the console's calls

export const contentText = z.object({
  lang: z.enum(LANGUAGE_KEYS as [LanguageKey, ...LanguageKey[]], { error: 'hint_paramInvalid' }),
  title: z.preprocess(
    (value) => value ?? '',
    safeString(CONTENT_TITLE_MAX).transform((v) => v.trim()),
  ),
  body: z.preprocess((value) => value ?? '', safeString(CONTENT_BODY_WIRE_MAX, 'multiLine')),
});
export type ContentText = z.output<typeof contentText>;

export const contentListQuery = pageQuery.extend({
  kind: z.enum(CONTENT_KINDS, { error: 'hint_paramInvalid' }),
  keyword: optionalText(50),
});

/**
 * An entry as the console writes it. `id` absent: a new entry. `image`: a new picture (JPEG or
 * PNG, base64 or a data URL, re-encoded by the server); `removeImage` drops the current one; with
 * neither the current image stays. English is required (every language falls back to it).
 */
export const contentSaveBody = z.object({
  id: optionalInt(1),
  kind: z.enum(CONTENT_KINDS, { error: 'hint_paramInvalid' }),
  key: z.preprocess((value) => (value === '' ? undefined : value), richTextKey.optional()),
  parentId: optionalInt(1),
  sort: intField(-1_000_000, 1_000_000).default(0),
  visible: z.boolean(),
  route: optionalText(60),
  startTime: optionalIsoTime,
  endTime: optionalIsoTime,
  publishTime: optionalIsoTime,
  image: z.preprocess((value) => (value === '' ? undefined : value), proofImage.optional()),
  removeImage: z.boolean().optional(),
  texts: z.array(contentText).min(1).max(LANGUAGE_KEYS.length),
});
export type ContentSaveBody = z.output<typeof contentSaveBody>;
export type ContentSaveInput = z.input<typeof contentSaveBody>;

export const contentDeleteBody = z.object({ id });

export const contentEntry = z.object({
  id: z.number(),
  kind: z.enum(CONTENT_KINDS),
  key: z.string().nullable(),
  parentId: z.number().nullable(),
  sort: z.number(),
  visible: z.boolean(),
  route: z.string().nullable(),
  startTime: z.string().nullable(),
  endTime: z.string().nullable(),
  publishTime: z.string(),
  image: z.string().describe("The image's URL, or ''."),
  viewCount: z.number(),
  texts: z.array(z.object({ lang: z.string(), title: z.string(), body: z.string() })),
  updateTime: z.string(),
  updatedBy: z.string().nullable(),
});
export type ContentEntry = z.output<typeof contentEntry>;
