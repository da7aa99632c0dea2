/**
 * Columns the user pages' tables share: a decimal, a time (or '–' without one), the book, an
 * order number, and the columns of a user's deposits and withdrawals around their amount.
 */
import type { TableColumnType, TableColumnsType } from 'antd';
import type { TFunction } from 'i18next';
import type { ReviewedRecharge, ReviewedWithdraw } from '@bourse/shared';
import { Muted, OrderNo, TimeCell } from '../cells';
import { StatusTag } from '../status-tag';
import { BookTag, Num } from './user-cells';

/** A decimal, right-aligned by its digits. */
export function numColumn<T>(title: string, dataIndex: string): TableColumnType<T> {
  return { title, dataIndex, align: 'right', render: (value: string) => <Num value={value} /> };
}

/** A time as two short lines; '–' where there is none yet. */
export function timeColumn<T>(title: string, dataIndex: string): TableColumnType<T> {
  return {
    title,
    dataIndex,
    render: (iso: string | null) => (iso ? <TimeCell iso={iso} /> : <Muted>–</Muted>),
  };
}

/** The live or demo book of the row. */
export function bookColumn<T>(t: TFunction): TableColumnType<T> {
  return {
    title: t('users.book.label'),
    dataIndex: 'book',
    render: (book: 'live' | 'demo') => <BookTag book={book} />,
  };
}

/** A request's or an order's number. */
export function orderNoColumn<T>(t: TFunction): TableColumnType<T> {
  return {
    title: t('review.orderNo'),
    dataIndex: 'orderNo',
    render: (value: string) => <OrderNo value={value} />,
  };
}

/**
 * A user's deposits or withdrawals: number and channel, the kind's own columns (`middle`: the
 * amount…), then status, when submitted and when it was decided (`closed`: its title and field).
 */
export function requestColumns<T extends ReviewedRecharge | ReviewedWithdraw>(
  t: TFunction,
  kind: 'recharge' | 'withdraw',
  middle: TableColumnsType<T>,
  closed: { title: string; dataIndex: string },
): TableColumnsType<T> {
  return [
    orderNoColumn(t),
    { title: t('review.channel'), dataIndex: 'channelName' },
    ...middle,
    {
      title: t('review.status'),
      render: (_, row) => <StatusTag kind={kind} status={row.status} reason={row.rejectReason} />,
    },
    timeColumn(t('review.submitted'), 'createTime'),
    timeColumn(closed.title, closed.dataIndex),
  ];
}
