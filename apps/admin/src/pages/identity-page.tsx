/**
 * The identity queue (support, admin): a review queue (components/review-queue.tsx) of
 * verification requests, each with its level, the real name and the document. A request opens in
 * a drawer (components/identity-review.tsx, loaded then) with its images side by side, to approve
 * or reject with a reason.
 */
import { lazy } from 'react';
import { Tag } from 'antd';
import type { TableColumnsType } from 'antd';
import type { TFunction } from 'i18next';
import type { ReviewedAuthRecord } from '@bourse/shared';
import { ReviewQueue } from '../components/review-queue';

const IdentityReview = lazy(() => import('../components/identity-review'));

const columns = (t: TFunction): TableColumnsType<ReviewedAuthRecord> => [
  {
    title: t('identity.levelFilter'),
    dataIndex: 'authLevel',
    render: (level: number) => (
      <Tag color={level === 1 ? 'purple' : 'blue'}>
        {t(`identity.level.${level === 1 ? '1' : '0'}`)}
      </Tag>
    ),
  },
  { title: t('identity.realName'), dataIndex: 'realName' },
  {
    title: t('identity.document'),
    render: (_, row) => (
      <span style={{ whiteSpace: 'nowrap' }}>
        {t(`identity.idType.${String(row.idType ?? 0) as '0'}`)} · <code>{row.idNumber}</code>
      </span>
    ),
  },
];

export default function IdentityPage() {
  return <ReviewQueue kind="identity" columns={columns} Review={IdentityReview} />;
}
