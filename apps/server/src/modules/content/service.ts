/**
 * Authored content: what the app reads (in the request's language, English where an entry has
 * none in it; only visible entries) and what content operators write (every change in one
 * transaction with its audit entry). Rich bodies (Q&A answers, pages, activities, news) are stored
 * only as `sanitizeRichText` returns them; notices and banners are plain text the app shows as
 * text. Images are decoded and re-encoded (lib/images) before they are stored.
 *
 * News views: a view counts once per viewer and day (UTC), a signed-in user by their id, a visitor
 * by a hash of their address, so reloading a page does not inflate the count and the table of
 * views grows by at most one row per viewer, item and day.
 */
import { createHash } from 'node:crypto';
import {
  IMAGE_CONTENT_KINDS,
  RICH_CONTENT_KINDS,
  contentApi,
  type ActivityDetail,
  type ActivityRow,
  type ActivityStatus,
  type ContentEntry,
  type ContentKind,
  type ContentSaveBody,
  type NewsDetail,
  type NewsRow,
  type NoticeRow,
  type PageQuery,
  type QaGroup,
  type RichTextPage,
  type SiteBanner,
} from '@bourse/shared';
import type { Database, Queryable } from '../../db/database';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { operatorPicture } from '../../lib/images';
import { richTextToPlain, sanitizeRichText } from '../../lib/rich-text';
import * as repo from './repo';

/** The audit entry a change writes, in the change's transaction (the console's writer). */
export type ContentAudit = (
  tx: Queryable,
  change: { action: string; targetType: string; targetId: string; before: unknown; after: unknown },
) => Promise<void>;

/** Who makes a change: stored on the entry beside the audit entry. */
export interface ContentEditor {
  operatorId: number;
  username: string;
}

/** Bounds of what the app's lists read at once (Q&A and notices are short lists). */
const QA_LIMIT = 1_000;
const NOTICE_LIMIT = 20;
const BANNER_LIMIT = 20;
const SUMMARY_LENGTH = 120;

function iso(value: Date | null): string | null {
  return value === null ? null : value.toISOString();
}

function summary(html: string): string {
  const plain = richTextToPlain(html);
  return plain.length > SUMMARY_LENGTH ? `${plain.slice(0, SUMMARY_LENGTH - 1)}…` : plain;
}

export function contentImageUrl(id: number, sha256: string): string {
  return `${contentApi.image.path}?id=${id}&v=${sha256}`;
}

function imageOf(row: repo.EntryRow): string {
  return row.image_id !== null && row.image_sha256 !== null
    ? contentImageUrl(row.image_id, row.image_sha256)
    : '';
}

export function activityStatus(row: repo.EntryRow, now: Date): ActivityStatus {
  if (row.ends_at !== null && row.ends_at <= now) return 'ended';
  if (row.starts_at !== null && row.starts_at > now) return 'upcoming';
  return 'ongoing';
}

export class ContentService {
  constructor(
    private readonly deps: {
      db: Database;
      clock: Clock;
      /** Told after a banner changes: site info, which carries the banners, is read afresh. */
      bannersChanged?: () => void;
    },
  ) {}

  // ------------------------------------------------------------ the app's side

  /** Visible questions by category (in order); with a keyword, those whose text contains it. */
  async qaList(lang: string, keyword?: string): Promise<QaGroup[]> {
    const { db } = this.deps;
    const [categories, questions] = await Promise.all([
      repo.visibleOfKind(db, lang, 'qaCategory', QA_LIMIT),
      repo.visibleOfKind(db, lang, 'qa', QA_LIMIT),
    ]);
    const needle = keyword?.toLocaleLowerCase();
    const matches = (row: repo.LocalizedRow) =>
      needle === undefined ||
      row.title.toLocaleLowerCase().includes(needle) ||
      richTextToPlain(row.body).toLocaleLowerCase().includes(needle);
    const groups: QaGroup[] = categories.map((category) => ({
      id: category.id,
      title: category.title,
      items: [],
    }));
    const uncategorised: QaGroup = { id: 0, title: '', items: [] };
    for (const question of questions) {
      if (!matches(question)) continue;
      const item = { id: question.id, question: question.title, answer: question.body };
      if (question.parent_id === null) uncategorised.items.push(item);
      else groups.find((group) => group.id === question.parent_id)?.items.push(item);
    }
    return [...groups, uncategorised].filter((group) => group.items.length > 0);
  }

  async richText(lang: string, key: string): Promise<RichTextPage> {
    const row = await repo.pageByKey(this.deps.db, lang, key);
    if (!row) throw new AppError('hint_notFound', 404, ['key']);
    return {
      key,
      title: row.title,
      content: row.body,
      updateTime: row.updated_at.toISOString(),
    };
  }

  private activity(row: repo.LocalizedRow, now: Date): ActivityRow {
    return {
      id: row.id,
      title: row.title,
      summary: summary(row.body),
      image: imageOf(row),
      startTime: iso(row.starts_at),
      endTime: iso(row.ends_at),
      status: activityStatus(row, now),
    };
  }

  async activityList(lang: string, page: PageQuery) {
    const now = this.deps.clock.now();
    const { rows, total } = await repo.activityPage(this.deps.db, lang, now, page);
    return { rows: rows.map((row) => this.activity(row, now)), total };
  }

  async activityDetail(lang: string, id: number): Promise<ActivityDetail> {
    const row = await repo.visibleEntry(this.deps.db, lang, 'activity', id);
    if (!row) throw new AppError('hint_notFound', 404, ['id']);
    return { ...this.activity(row, this.deps.clock.now()), content: row.body };
  }

  private news(row: repo.LocalizedRow): NewsRow {
    return {
      id: row.id,
      title: row.title,
      summary: summary(row.body),
      image: imageOf(row),
      publishTime: row.published_at.toISOString(),
      viewCount: row.view_count,
    };
  }

  async newsList(lang: string, page: PageQuery) {
    const { rows, total } = await repo.newsPage(this.deps.db, lang, this.deps.clock.now(), page);
    return { rows: rows.map((row) => this.news(row)), total };
  }

  /**
   * A news item, its view counted: `viewer` is `user:<id>` or the visitor's address (hashed here,
   * so no address is stored). One view per viewer and UTC day.
   */
  async newsDetail(
    lang: string,
    id: number,
    viewer: { userId: number } | { address: string },
  ): Promise<NewsDetail> {
    const now = this.deps.clock.now();
    return this.deps.db.transaction(async (tx) => {
      const row = await repo.visibleEntry(tx, lang, 'news', id);
      if (!row || row.published_at > now) throw new AppError('hint_notFound', 404, ['id']);
      const who =
        'userId' in viewer
          ? `user:${viewer.userId}`
          : `ip:${createHash('sha256').update(viewer.address).digest('hex').slice(0, 32)}`;
      const counted = await repo.recordView(tx, id, now.toISOString().slice(0, 10), who);
      return { ...this.news({ ...row, view_count: counted ?? row.view_count }), content: row.body };
    });
  }

  async notices(lang: string): Promise<NoticeRow[]> {
    const rows = await repo.visibleNow(
      this.deps.db,
      lang,
      'notice',
      this.deps.clock.now(),
      NOTICE_LIMIT,
    );
    return rows
      .filter((row) => row.title !== '')
      .map((row) => ({ id: row.id, text: row.title, route: row.route ?? '' }));
  }

  /**
   * The banners operators wrote, for site info; undefined while none is written, so the
   * platform's default banners show.
   */
  async banners(lang: string): Promise<SiteBanner[] | undefined> {
    const rows = await repo.visibleNow(
      this.deps.db,
      lang,
      'banner',
      this.deps.clock.now(),
      BANNER_LIMIT,
    );
    if (rows.length === 0 && (await repo.countOfKind(this.deps.db, 'banner')) === 0)
      return undefined;
    return rows.map((row) => ({
      id: String(row.id),
      title: row.title,
      text: row.body,
      route: row.route ?? '',
      image: imageOf(row),
    }));
  }

  async image(id: number, sha256?: string) {
    const row = await repo.image(this.deps.db, id);
    if (!row || (sha256 !== undefined && sha256 !== row.sha256)) return null;
    return row;
  }

  // ------------------------------------------------------------ the console's side

  private async entries(rows: repo.EntryRow[], q: Queryable = this.deps.db) {
    const texts = await repo.textsOf(
      q,
      rows.map((row) => row.id),
    );
    return rows.map((row): ContentEntry => ({
      id: row.id,
      ...settingsOf(row),
      image: imageOf(row),
      viewCount: row.view_count,
      texts: texts
        .filter((text) => text.entry_id === row.id)
        .map(({ lang, title, body }) => ({ lang, title, body })),
      updateTime: row.updated_at.toISOString(),
      updatedBy: row.updated_by_name,
    }));
  }

  async list(query: { kind: ContentKind; keyword?: string } & PageQuery) {
    const { rows, total } = await repo.entryPage(this.deps.db, query.kind, query.keyword, query);
    return { rows: await this.entries(rows), total };
  }

  /** The texts as stored: rich bodies sanitised, plain ones as typed; empty languages left out. */
  private cleanTexts(body: ContentSaveBody) {
    const rich = RICH_CONTENT_KINDS.includes(body.kind);
    const seen = new Set<string>();
    const texts = [];
    for (const text of body.texts) {
      if (seen.has(text.lang)) throw new AppError('hint_paramInvalid', 400, ['texts']);
      seen.add(text.lang);
      const cleaned = rich ? sanitizeRichText(text.body) : text.body.trim();
      if (!rich && cleaned.length > 500)
        throw new AppError('hint_paramTooLong', 400, ['body', 500]);
      // A rich body of only empty paragraphs is no body.
      const empty = rich ? richTextToPlain(cleaned) === '' && !cleaned.includes('<img') : !cleaned;
      const bodyText = empty ? '' : cleaned;
      if (text.title === '' && bodyText === '') continue;
      texts.push({ lang: text.lang, title: text.title, body: bodyText });
    }
    // English is every language's fallback: its title (and a question's answer) must be there.
    const english = texts.find((text) => text.lang === 'en');
    if (!english || english.title === '' || (body.kind === 'qa' && english.body === ''))
      throw new AppError('hint_contentEnglishRequired', 400, ['texts']);
    return texts;
  }

  /** Creates or changes an entry with its texts and image, audited, in one transaction. */
  async save(body: ContentSaveBody, editor: ContentEditor, audit: ContentAudit) {
    const texts = this.cleanTexts(body);
    const startsAt = body.startTime ? new Date(body.startTime) : null;
    const endsAt = body.endTime ? new Date(body.endTime) : null;
    if (startsAt && endsAt && endsAt <= startsAt)
      throw new AppError('hint_contentTimeOrder', 400, ['endTime']);
    if (body.kind === 'page' && !body.key) throw new AppError('hint_paramRequired', 400, ['key']);
    if (body.image && !IMAGE_CONTENT_KINDS.includes(body.kind))
      throw new AppError('hint_paramInvalid', 400, ['image']);
    // Decoded before the transaction, so the decoding holds no connection (PGlite has one).
    const image = body.image ? await operatorPicture(body.image) : undefined;
    const now = this.deps.clock.now();
    const saved = await this.deps.db.transaction(async (tx) => {
      const before = body.id === undefined ? undefined : await repo.entry(tx, body.id, true);
      if (body.id !== undefined && (!before || before.kind !== body.kind))
        throw new AppError('hint_notFound', 404, ['id']);
      if (body.kind === 'page') {
        const owner = await repo.pageKeyOwner(tx, body.key!);
        if (owner && owner.id !== body.id) throw new AppError('hint_contentKeyTaken', 409, ['key']);
      }
      if (body.kind === 'qa' && body.parentId !== undefined) {
        if (!(await repo.categoryExists(tx, body.parentId)))
          throw new AppError('hint_notFound', 404, ['parentId']);
      }
      const beforeTexts = before ? await repo.textsOf(tx, [before.id]) : [];
      let imageId = before?.image_id ?? null;
      if (image) imageId = await repo.insertImage(tx, image, now);
      else if (body.removeImage) imageId = null;
      const values: repo.EntryValues = {
        kind: body.kind,
        pageKey: body.kind === 'page' ? body.key! : null,
        parentId: body.kind === 'qa' ? (body.parentId ?? null) : null,
        sort: body.sort,
        visible: body.visible,
        route: body.kind === 'notice' || body.kind === 'banner' ? (body.route ?? null) : null,
        startsAt,
        endsAt,
        publishedAt: body.publishTime ? new Date(body.publishTime) : (before?.published_at ?? now),
        imageId,
        at: now,
        operatorId: editor.operatorId,
        operatorName: editor.username,
      };
      const id = before ? before.id : await repo.insertEntry(tx, values);
      if (before) await repo.updateEntry(tx, id, values);
      await repo.replaceTexts(tx, id, texts);
      if (before?.image_id && before.image_id !== imageId)
        await repo.deleteImageIfUnused(tx, before.image_id);
      const after = await repo.entry(tx, id);
      const [entry] = await this.entries([after!], tx);
      await audit(tx, {
        action: before ? 'content.update' : 'content.create',
        targetType: `content.${body.kind}`,
        targetId: String(id),
        before: before ? auditView(before, beforeTexts) : null,
        after: auditView(after!, texts),
      });
      return entry!;
    });
    if (body.kind === 'banner') this.deps.bannersChanged?.();
    return saved;
  }

  async remove(id: number, audit: ContentAudit): Promise<void> {
    const kind = await this.deps.db.transaction(async (tx) => {
      const before = await repo.entry(tx, id, true);
      if (!before) throw new AppError('hint_notFound', 404, ['id']);
      if (before.kind === 'qaCategory' && (await repo.questionsIn(tx, id)).count > 0)
        throw new AppError('hint_contentCategoryInUse', 409, ['id']);
      const texts = await repo.textsOf(tx, [id]);
      await repo.deleteEntry(tx, id);
      if (before.image_id) await repo.deleteImageIfUnused(tx, before.image_id);
      await audit(tx, {
        action: 'content.delete',
        targetType: `content.${before.kind}`,
        targetId: String(id),
        before: auditView(before, texts),
        after: null,
      });
      return before.kind;
    });
    if (kind === 'banner') this.deps.bannersChanged?.();
  }
}

/** An entry's settings as the console and the audit log show them (kind … publish time). */
function settingsOf(row: repo.EntryRow) {
  return {
    kind: row.kind,
    key: row.page_key,
    parentId: row.parent_id,
    sort: row.sort,
    visible: row.visible,
    route: row.route,
    startTime: iso(row.starts_at),
    endTime: iso(row.ends_at),
    publishTime: row.published_at.toISOString(),
  };
}

/** What the audit log keeps of an entry: its settings and its texts (bodies as stored). */
function auditView(
  row: repo.EntryRow,
  texts: readonly { lang: string; title: string; body: string }[],
) {
  return {
    ...settingsOf(row),
    imageId: row.image_id,
    texts: texts.map(({ lang, title, body }) => ({ lang, title, body })),
  };
}
