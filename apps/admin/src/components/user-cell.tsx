import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';

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
    <Typography.Text style={{ fontFamily: 'monospace', fontSize: 13, whiteSpace: 'nowrap' }}>
      {value}
    </Typography.Text>
  );
}
