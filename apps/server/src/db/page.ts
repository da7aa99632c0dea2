/** Paged lists (`pageNum`, `pageSize`): one page of rows and the count of all. */
import type { PageQuery } from '@bourse/shared';
import type { Queryable } from './database';

/**
 * One page of `rows` (a SELECT with its ORDER BY) and how many rows there are in all (`count`, a
 * `SELECT count(*)::int AS total`), both with `params`.
 */
export async function pageOf<Row>(
  q: Queryable,
  sql: { rows: string; count: string; params: readonly unknown[] },
  page: PageQuery,
): Promise<{ rows: Row[]; total: number }> {
  const limit = sql.params.length + 1;
  const [{ rows }, { rows: count }] = await Promise.all([
    q.query<Row>(`${sql.rows} LIMIT $${limit} OFFSET $${limit + 1}`, [
      ...sql.params,
      page.pageSize,
      pageOffset(page),
    ]),
    q.query<{ total: number }>(sql.count, sql.params),
  ]);
  return { rows, total: count[0]?.total ?? 0 };
}

/** Where a page starts: how many rows the pages before it hold. */
export function pageOffset(page: PageQuery): number {
  return (page.pageNum - 1) * page.pageSize;
}

/** A page with each of its rows mapped (a repo's rows to what a call answers). */
export function mapRows<Row, T>(
  page: { rows: Row[]; total: number },
  map: (row: Row) => T,
): { rows: T[]; total: number } {
  return { rows: page.rows.map(map), total: page.total };
}
