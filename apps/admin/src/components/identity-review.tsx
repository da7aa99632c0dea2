/**
 * A verification request under review, in the review drawer (components/review-drawer.tsx): the
 * user, the level, the real name and the document in full, and for the advanced level its three
 * images side by side (zoom, rotate in antd's preview; each image fetched is recorded in the
 * audit log by the server). Approving gives the user the level; rejecting needs the reason they
 * read. Loaded when a request is opened.
 */
import { Alert, Col, Image, Row, Skeleton, Typography } from 'antd';
import type { TFunction } from 'i18next';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { consoleIdentityApi, type AuthDocumentSide, type ReviewedAuthRecord } from '@bourse/shared';
import { api } from '../api';
import { errorText } from '../i18n';
import { formatTime } from '../lib/format';
import { useObjectUrl } from './proof-image';
import { detail, ReviewDrawer, type KindDetails } from './review-drawer';

const SIDES: readonly AuthDocumentSide[] = ['front', 'back', 'hold'];

function DocumentImage({ id, side }: { id: number; side: AuthDocumentSide }) {
  const { t } = useTranslation();
  const image = useQuery({
    queryKey: ['identity-document', id, side],
    queryFn: () => api.call(consoleIdentityApi.identityDocument, { id, side }),
    // A stored image never changes; fetched once per opening (each fetch is audited).
    staleTime: Infinity,
    gcTime: 60_000,
  });
  const url = useObjectUrl(image.data);
  return (
    <div data-testid={`document-${side}`}>
      <Typography.Text type="secondary">{t(`identity.side.${side}`)}</Typography.Text>
      <div style={{ marginTop: 6 }}>
        {image.isError ? (
          <Alert type="error" showIcon message={errorText(image.error)} />
        ) : url ? (
          <Image
            src={url}
            alt={t(`identity.side.${side}`)}
            width="100%"
            style={{ height: 200, objectFit: 'contain', border: '1px solid #f0f0f0' }}
            preview={{ mask: t('identity.zoom') }}
          />
        ) : (
          <Skeleton.Image active style={{ width: 260, height: 200 }} />
        )}
      </div>
    </div>
  );
}

/** The level of a request as its name (`Basic verification`). */
export function levelName(t: TFunction, level: number): string {
  return t('identity.levelTitle', { level: t(`identity.level.${level === 1 ? '1' : '0'}`) });
}

export default function IdentityReview({
  record,
  onClose,
}: {
  record: ReviewedAuthRecord;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const level = levelName(t, record.authLevel);
  const details: KindDetails = {
    headline: { label: t('identity.request'), text: `${level} · ${record.realName ?? ''}` },
    afterAmount: [
      detail(t('identity.realName'), record.realName, 2),
      detail(
        t('identity.document'),
        <span data-testid="identity-document">
          {t(`identity.idType.${String(record.idType ?? 0) as '0'}`)} ·{' '}
          <Typography.Text copyable code>
            {record.idNumber}
          </Typography.Text>
        </span>,
        2,
      ),
      detail(t('identity.phone'), record.phone, 2),
    ],
    closing: [detail(t('review.reviewed'), record.reviewTime && formatTime(record.reviewTime), 2)],
  };
  return (
    <ReviewDrawer kind="identity" record={record} onClose={onClose} details={details}>
      <Typography.Title level={5}>{t('identity.images')}</Typography.Title>
      {record.documents.length === 0 ? (
        <Typography.Text type="secondary">{t('identity.noImages')}</Typography.Text>
      ) : (
        <>
          <Typography.Paragraph type="secondary">{t('identity.viewAudited')}</Typography.Paragraph>
          <Row gutter={12}>
            {SIDES.filter((side) => record.documents.includes(side)).map((side) => (
              <Col span={8} key={side}>
                <DocumentImage id={record.id} side={side} />
              </Col>
            ))}
          </Row>
        </>
      )}
    </ReviewDrawer>
  );
}
