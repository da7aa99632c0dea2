import { Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { STATUSES, type RequestKind } from '../lib/requests';

type StatusName<K extends RequestKind> = keyof (typeof STATUSES)[K] & string;

const COLOURS: Record<string, string> = {
  reviewing: 'processing',
  approved: 'success',
  paid: 'success',
  rejected: 'error',
  cancelled: 'default',
};

/** The name of a request's status code (`reviewing`, `approved`…). */
export function statusName<K extends RequestKind>(
  kind: K,
  status: number,
): StatusName<K> | undefined {
  const entry = Object.entries(STATUSES[kind]).find(([, code]) => code === status);
  return entry?.[0] as StatusName<K> | undefined;
}

/** A request's status as a tag; a rejection's reason on hover. */
export function StatusTag({
  kind,
  status,
  reason,
}: {
  kind: RequestKind;
  status: number;
  reason?: string | null;
}) {
  const { t } = useTranslation();
  const name = statusName(kind, status);
  const tag = (
    <Tag color={(name && COLOURS[name]) ?? 'default'} data-testid="status">
      {name ? t(`status.${name}`) : status}
    </Tag>
  );
  return reason ? <Tooltip title={reason}>{tag}</Tooltip> : tag;
}
