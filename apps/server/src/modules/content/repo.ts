/** The SQL of authored content: entries by kind, their texts per language, images and views. */
import type { ContentKind } from '@bourse/shared';
import { allRows, firstRow, oneRow, type Queryable } from '../../db/database';
import { pageOf } from '../../db/page';
import type { PageQuery } from '@bourse/shared';

export interface EntryRow {
  id: number;
  kind: ContentKind;
  page_key: string | null;
  parent_id: number | null;
  sort: number;
  visible: boolean;
  route: string | null;
  starts_at: Date | null;
  ends_at: Date | null;
  published_at: Date;
  image_id: number | null;
  image_sha256: string | null;
  view_count: number;
  updated_at: Date;
  updated_by_name: string | null;
}

/** An entry with its title and body in one language (English where that language has none). */
export interface LocalizedRow extends EntryRow {
  title: string;
  body: string;
}

export interface TextRow {
  entry_id: number;
  lang: string;
  title: string;
  body: string;
}

const ENTRY_COLUMNS = `e.id, e.kind, e.page_key, e.parent_id, e.sort, e.visible, e.route, e.starts_at,
  e.ends_at, e.published_at, e.image_id, i.sha256 AS image_sha256, e.view_count, e.updated_at,
  e.updated_by_name`;

/** Each field falls back to English on its own: a language with a title only keeps it. */
const LOCALIZED = `
  SELECT ${ENTRY_COLUMNS},
         COALESCE(NULLIF(t.title, ''), en.title, '') AS title,
         COALESCE(NULLIF(t.body, ''), en.body, '') AS body
  FROM content_entry e
  LEFT JOIN content_image i ON i.id = e.image_id
  LEFT JOIN content_text t ON t.entry_id = e.id AND t.lang = $1
  LEFT JOIN content_text en ON en.entry_id = e.id AND en.lang = 'en'`;

// ---------------------------------------------------------------- the app's reads

/** Visible entries of a kind in the app's order (sort, then id), at most `limit`. */
export function visibleOfKind(
  q: Queryable,
  lang: string,
  kind: ContentKind,
  limit: number,
): Promise<LocalizedRow[]> {
  return allRows<LocalizedRow>(
    q,
    `${LOCALIZED} WHERE e.kind = $2 AND e.visible ORDER BY e.sort, e.id LIMIT $3`,
    [lang, kind, limit],
  );
}

/** Visible entries of a kind whose optional window holds `now` (notices), in order. */
export function visibleNow(
  q: Queryable,
  lang: string,
  kind: ContentKind,
  now: Date,
  limit: number,
): Promise<LocalizedRow[]> {
  return allRows<LocalizedRow>(
    q,
    `${LOCALIZED}
     WHERE e.kind = $2 AND e.visible
       AND (e.starts_at IS NULL OR e.starts_at <= $3) AND (e.ends_at IS NULL OR e.ends_at > $3)
     ORDER BY e.sort, e.id LIMIT $4`,
    [lang, kind, now, limit],
  );
}

export function pageByKey(
  q: Queryable,
  lang: string,
  key: string,
): Promise<LocalizedRow | undefined> {
  return firstRow<LocalizedRow>(
    q,
    `${LOCALIZED} WHERE e.kind = 'page' AND e.page_key = $2 AND e.visible`,
    [lang, key],
  );
}

export function visibleEntry(
  q: Queryable,
  lang: string,
  kind: ContentKind,
  id: number,
): Promise<LocalizedRow | undefined> {
  return firstRow<LocalizedRow>(q, `${LOCALIZED} WHERE e.id = $2 AND e.kind = $3 AND e.visible`, [
    lang,
    id,
    kind,
  ]);
}

/** Activities not ended at `now`: running ones first, then upcoming by start. */
export function activityPage(q: Queryable, lang: string, now: Date, page: PageQuery) {
  const where = `WHERE e.kind = 'activity' AND e.visible AND (e.ends_at IS NULL OR e.ends_at > $2)`;
  return pageOf<LocalizedRow>(
    q,
    {
      rows: `${LOCALIZED} ${where}
        ORDER BY (e.starts_at IS NOT NULL AND e.starts_at > $2), e.sort, e.starts_at, e.id DESC`,
      count: `SELECT count(*)::int AS total FROM content_entry e
        WHERE $1::text IS NOT NULL AND e.kind = 'activity' AND e.visible
          AND (e.ends_at IS NULL OR e.ends_at > $2)`,
      params: [lang, now],
    },
    page,
  );
}

/** News published by `now`, newest first. */
export function newsPage(q: Queryable, lang: string, now: Date, page: PageQuery) {
  return pageOf<LocalizedRow>(
    q,
    {
      rows: `${LOCALIZED} WHERE e.kind = 'news' AND e.visible AND e.published_at <= $2
        ORDER BY e.published_at DESC, e.id DESC`,
      count: `SELECT count(*)::int AS total FROM content_entry e
        WHERE $1::text IS NOT NULL AND e.kind = 'news' AND e.visible AND e.published_at <= $2`,
      params: [lang, now],
    },
    page,
  );
}

/** Records a view of a viewer on a day; whether it is the first (then the count grows). */
export async function recordView(
  q: Queryable,
  entryId: number,
  day: string,
  viewer: string,
): Promise<number | undefined> {
  const inserted = await firstRow<{ entry_id: number }>(
    q,
    `INSERT INTO content_view (entry_id, day, viewer) VALUES ($1, $2, $3)
     ON CONFLICT DO NOTHING RETURNING entry_id`,
    [entryId, day, viewer],
  );
  if (!inserted) return undefined;
  const row = await oneRow<{ view_count: number }>(
    q,
    `UPDATE content_entry SET view_count = view_count + 1 WHERE id = $1 RETURNING view_count`,
    [entryId],
  );
  return row.view_count;
}

export function image(
  q: Queryable,
  id: number,
): Promise<{ mime: string; sha256: string; data: Uint8Array } | undefined> {
  return firstRow(q, `SELECT mime, sha256, data FROM content_image WHERE id = $1`, [id]);
}

// ---------------------------------------------------------------- the console's side

/** Entries of a kind in the app's order, optionally whose title in some language has `keyword`. */
export function entryPage(
  q: Queryable,
  kind: ContentKind,
  keyword: string | undefined,
  page: PageQuery,
) {
  const pattern = keyword === undefined ? null : `%${keyword.replace(/[\\%_]/g, '\\$&')}%`;
  const where = `WHERE e.kind = $1 AND ($2::text IS NULL OR EXISTS (
      SELECT 1 FROM content_text t WHERE t.entry_id = e.id AND t.title ILIKE $2))`;
  const order =
    kind === 'news'
      ? 'e.published_at DESC, e.id DESC'
      : kind === 'page'
        ? 'e.page_key'
        : 'e.sort, e.id';
  return pageOf<EntryRow>(
    q,
    {
      rows: `SELECT ${ENTRY_COLUMNS} FROM content_entry e
        LEFT JOIN content_image i ON i.id = e.image_id ${where} ORDER BY ${order}`,
      count: `SELECT count(*)::int AS total FROM content_entry e ${where}`,
      params: [kind, pattern],
    },
    page,
  );
}

export function entry(q: Queryable, id: number, lock = false): Promise<EntryRow | undefined> {
  return firstRow<EntryRow>(
    q,
    `SELECT ${ENTRY_COLUMNS} FROM content_entry e LEFT JOIN content_image i ON i.id = e.image_id
     WHERE e.id = $1 ${lock ? 'FOR UPDATE OF e' : ''}`,
    [id],
  );
}

export function textsOf(q: Queryable, ids: readonly number[]): Promise<TextRow[]> {
  return allRows<TextRow>(
    q,
    `SELECT entry_id, lang, title, body FROM content_text WHERE entry_id = ANY($1::bigint[])
     ORDER BY entry_id, lang`,
    [ids],
  );
}

export function pageKeyOwner(q: Queryable, key: string): Promise<{ id: number } | undefined> {
  return firstRow(q, `SELECT id FROM content_entry WHERE kind = 'page' AND page_key = $1`, [key]);
}

export function categoryExists(q: Queryable, id: number): Promise<{ id: number } | undefined> {
  return firstRow(q, `SELECT id FROM content_entry WHERE id = $1 AND kind = 'qaCategory'`, [id]);
}

export function questionsIn(q: Queryable, categoryId: number): Promise<{ count: number }> {
  return oneRow(q, `SELECT count(*)::int AS count FROM content_entry WHERE parent_id = $1`, [
    categoryId,
  ]);
}

export interface EntryValues {
  kind: ContentKind;
  pageKey: string | null;
  parentId: number | null;
  sort: number;
  visible: boolean;
  route: string | null;
  startsAt: Date | null;
  endsAt: Date | null;
  publishedAt: Date;
  imageId: number | null;
  at: Date;
  operatorId: number;
  operatorName: string;
}

/** An entry's values from page_key to updated_by_name, as insert and update number them from $2. */
function entryParams(v: EntryValues): unknown[] {
  return [
    v.pageKey,
    v.parentId,
    v.sort,
    v.visible,
    v.route,
    v.startsAt,
    v.endsAt,
    v.publishedAt,
    v.imageId,
    v.at,
    v.operatorId,
    v.operatorName,
  ];
}

export async function insertEntry(q: Queryable, v: EntryValues): Promise<number> {
  const row = await oneRow<{ id: number }>(
    q,
    `INSERT INTO content_entry (kind, page_key, parent_id, sort, visible, route, starts_at, ends_at,
       published_at, image_id, created_at, updated_at, updated_by, updated_by_name)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11, $12, $13) RETURNING id`,
    [v.kind, ...entryParams(v)],
  );
  return row.id;
}

export async function updateEntry(q: Queryable, id: number, v: EntryValues): Promise<void> {
  await q.query(
    `UPDATE content_entry SET page_key = $2, parent_id = $3, sort = $4, visible = $5, route = $6,
       starts_at = $7, ends_at = $8, published_at = $9, image_id = $10, updated_at = $11,
       updated_by = $12, updated_by_name = $13
     WHERE id = $1`,
    [id, ...entryParams(v)],
  );
}

export async function replaceTexts(
  q: Queryable,
  id: number,
  texts: readonly { lang: string; title: string; body: string }[],
): Promise<void> {
  await q.query(`DELETE FROM content_text WHERE entry_id = $1`, [id]);
  if (texts.length === 0) return;
  await q.query(
    `INSERT INTO content_text (entry_id, lang, title, body)
     SELECT $1, t.lang, t.title, t.body
     FROM unnest($2::text[], $3::text[], $4::text[]) AS t(lang, title, body)`,
    [id, texts.map((t) => t.lang), texts.map((t) => t.title), texts.map((t) => t.body)],
  );
}

export async function insertImage(
  q: Queryable,
  image: { mime: string; width: number; height: number; sha256: string; data: Buffer },
  at: Date,
): Promise<number> {
  const row = await oneRow<{ id: number }>(
    q,
    `INSERT INTO content_image (mime, width, height, sha256, data, created_at)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
    [image.mime, image.width, image.height, image.sha256, image.data, at],
  );
  return row.id;
}

export async function deleteEntry(q: Queryable, id: number): Promise<void> {
  await q.query(`DELETE FROM content_entry WHERE id = $1`, [id]);
}

/** Drops an image no entry shows any more (replaced or removed). */
export async function deleteImageIfUnused(q: Queryable, id: number): Promise<void> {
  await q.query(
    `DELETE FROM content_image WHERE id = $1
     AND NOT EXISTS (SELECT 1 FROM content_entry WHERE image_id = $1)`,
    [id],
  );
}

export async function countOfKind(q: Queryable, kind: ContentKind): Promise<number> {
  const row = await oneRow<{ count: number }>(
    q,
    `SELECT count(*)::int AS count FROM content_entry WHERE kind = $1`,
    [kind],
  );
  return row.count;
}
