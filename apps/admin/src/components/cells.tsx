/** Table cells the queues share: a request's user, its order number and a time, each compact. */
import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDate, formatTimeOfDay } from '../lib/format';

/** A request's user: their account (email or phone) and id. */
export function UserCell({ account, id }: { account: string; id: number }) {
  const { t } = useTranslation();
  return (
    <div style={{ lineHeight: 1.35, whiteSpace: 'nowrap' }}>
      <div>{account}</div>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t('review.userIdValue', { id })}
      </Typography.Text>
    </div>
  );
}

/** A request's order number, on one line. */
export function OrderNo({ value }: { value: string }) {
  return (
    <Typography.Text style={{ fontFamily: 'monospace', fontSize: 12, whiteSpace: 'nowrap' }}>
      {value}
    </Typography.Text>
  );
}

/** A time as two short lines: the date, then the time of day. */
export function TimeCell({ iso }: { iso: string }) {
  return (
    <div style={{ lineHeight: 1.35, whiteSpace: 'nowrap' }}>
      <div>{formatDate(iso)}</div>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {formatTimeOfDay(iso)}
      </Typography.Text>
    </div>
  );
}
