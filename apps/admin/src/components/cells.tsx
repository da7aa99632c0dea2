/**
 * Table cells the queues share: a request's user, its order number and a time, each compact.
 * Plain elements in antd's colours rather than Typography, which brings copy, edit and ellipsis
 * machinery the queues' first screen does not need.
 */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDate, formatTimeOfDay } from '../lib/format';

/** antd's secondary text colour (colorTextSecondary of the default theme). */
export const SECONDARY_TEXT = 'rgba(0, 0, 0, 0.45)';

/** Secondary text: what explains the line above it. */
export function Muted({ children, small = false }: { children: ReactNode; small?: boolean }) {
  return (
    <span style={{ color: SECONDARY_TEXT, ...(small ? { fontSize: 12 } : {}) }}>{children}</span>
  );
}

/** A request's user: their account (email or phone), which opens their page, and id. */
export function UserCell({ account, id }: { account: string; id: number }) {
  const { t } = useTranslation();
  return (
    <div style={{ lineHeight: 1.35, whiteSpace: 'nowrap' }}>
      <div>
        <Link to={`/users/${id}`}>{account}</Link>
      </div>
      <Muted small>{t('review.userIdValue', { id })}</Muted>
    </div>
  );
}

/** A request's order number, on one line. */
export function OrderNo({ value }: { value: string }) {
  return (
    <span style={{ fontFamily: 'monospace', fontSize: 12, whiteSpace: 'nowrap' }}>{value}</span>
  );
}

/** A time as two short lines: the date, then the time of day. */
export function TimeCell({ iso }: { iso: string }) {
  return (
    <div style={{ lineHeight: 1.35, whiteSpace: 'nowrap' }}>
      <div>{formatDate(iso)}</div>
      <Muted small>{formatTimeOfDay(iso)}</Muted>
    </div>
  );
}

/** A toolbar over a list: its parts spread to both ends, wrapping when narrow. */
export function ToolbarRow({ children }: { children: ReactNode }) {
  return (
    <div
      style={{
        display: 'flex',
        justifyContent: 'space-between',
        alignItems: 'center',
        gap: 16,
        marginBottom: 16,
        flexWrap: 'wrap',
      }}
    >
      {children}
    </div>
  );
}

/** A withdrawal's amount (`children`) over its fee. */
export function AmountWithFee({ fee, children }: { fee: string; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <div style={{ lineHeight: 1.35, whiteSpace: 'nowrap' }}>
      {children}
      <div>
        <Muted small>{t('withdrawals.feeShort', { fee })}</Muted>
      </div>
    </div>
  );
}
