/** Cells of the user pages: the book, an account's status, a signed amount, a product's side. */
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { Muted } from '../cells';

/** The live or demo book (accountType 0 / 2, or its name). */
export function BookTag({ book }: { book: 'live' | 'demo' | number }) {
  const { t } = useTranslation();
  const name = book === 'demo' || book === 2 ? 'demo' : 'live';
  return (
    <Tag color={name === 'live' ? 'blue' : 'default'} bordered={false}>
      {t(`users.book.${name}`)}
    </Tag>
  );
}

/** Whether the user may sign in. */
export function UserStatusTag({ status }: { status: number }) {
  const { t } = useTranslation();
  return status === 0 ? (
    <Tag color="success">{t('users.status.active')}</Tag>
  ) : (
    <Tag color="error" data-testid="user-disabled">
      {t('users.status.disabled')}
    </Tag>
  );
}

/** A signed amount: + in green, - in red, with its currency. */
export function SignedAmount({ value, currency }: { value: string; currency?: string }) {
  const negative = value.startsWith('-');
  const zero = /^0(\.0+)?$/.test(value);
  return (
    <span
      style={{
        color: zero ? undefined : negative ? '#cf1322' : '#389e0d',
        fontVariantNumeric: 'tabular-nums',
        whiteSpace: 'nowrap',
      }}
    >
      {negative || zero ? value : `+${value}`}
      {currency && <Muted> {currency}</Muted>}
    </span>
  );
}

/** A decimal, aligned by its digits; '–' when absent. */
export function Num({ value }: { value: string | number | null | undefined }) {
  return (
    <span style={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}>
      {value === null || value === undefined ? '–' : value}
    </span>
  );
}
