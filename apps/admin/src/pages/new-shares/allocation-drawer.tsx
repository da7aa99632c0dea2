/**
 * An allocated offering's allocation as published: the rule, the totals, the seed, the canonical
 * input it is the SHA-256 of and the result, each with a copy button, and the command anyone runs
 * to recompute it. The drawer recomputes it too, here, with the same shared `allocate` the server
 * ran, from the published book alone, and says whether every byte matches. There is nothing to
 * change: no operator action touches an allocation.
 */
import { Alert, Descriptions, Drawer, Tag, Typography } from 'antd';
import { CheckCircleOutlined, CloseCircleOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  checkPublishedAllocation,
  consoleNewSharesApi,
  type ConsoleOffering,
} from '@bourse/shared';
import { api } from '../../api';
import { ListError } from '../../components/data-table';
import { PageLoading } from '../../components/page-loading';
import { formatTime } from '../../lib/format';
import { PublishedText } from './parts';

/** Which published parts the recomputation does not reproduce (none: it matches). */

export function VerifyCommand({ id }: { id: number }) {
  const command = `npm run ipo:verify -- ${id}`;
  return (
    <Typography.Text code copyable={{ text: command }} data-testid="new-share-verify-command">
      {command}
    </Typography.Text>
  );
}

export function AllocationDrawer({
  offering,
  onClose,
}: {
  offering: ConsoleOffering;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const query = useQuery({
    queryKey: ['newShares', 'allocation', offering.id],
    queryFn: () => api.call(consoleNewSharesApi.allocation, { id: offering.id }),
  });
  const allocation = query.data;
  const differs = allocation ? checkPublishedAllocation(allocation) : [];

  return (
    <Drawer
      open
      width={960}
      title={t('newShares.alloc.title', { code: offering.code })}
      onClose={onClose}
      destroyOnHidden
      data-testid="new-share-allocation"
    >
      <ListError error={query.error} />
      {query.isPending && <PageLoading />}
      {allocation && (
        <>
          <Alert
            type="info"
            showIcon
            style={{ marginBottom: 16 }}
            message={t('newShares.alloc.fixed')}
            description={
              <span>
                {t('newShares.alloc.verify')} <VerifyCommand id={allocation.offeringId} />
              </span>
            }
          />
          <Descriptions
            size="small"
            bordered
            column={3}
            style={{ marginBottom: 16 }}
            data-testid="new-share-alloc-totals"
          >
            <Descriptions.Item label={t('newShares.alloc.rule')}>
              <Typography.Text code data-testid="new-share-alloc-rule">
                {allocation.rule}
              </Typography.Text>
            </Descriptions.Item>
            <Descriptions.Item label={t('newShares.alloc.lines')}>
              <span data-testid="new-share-alloc-lines">{allocation.lines.length}</span>
            </Descriptions.Item>
            <Descriptions.Item label={t('newShares.alloc.allocatedAt')}>
              {formatTime(allocation.allocatedAt)}
            </Descriptions.Item>
            <Descriptions.Item label={t('newShares.alloc.offered')}>
              <span data-testid="new-share-alloc-offered">{allocation.lotsOffered}</span>
            </Descriptions.Item>
            <Descriptions.Item label={t('newShares.alloc.requested')}>
              <span data-testid="new-share-alloc-requested">{allocation.lotsRequested}</span>
            </Descriptions.Item>
            <Descriptions.Item label={t('newShares.alloc.allocated')}>
              <span data-testid="new-share-alloc-allocated">{allocation.lotsAllocated}</span>
            </Descriptions.Item>
            <Descriptions.Item label={t('newShares.alloc.oversubscribed')} span={3}>
              <span data-testid="new-share-alloc-oversubscribed">
                {t(allocation.oversubscribed ? 'newShares.alloc.yes' : 'newShares.alloc.no')}
              </span>
            </Descriptions.Item>
          </Descriptions>
          <div style={{ marginBottom: 16 }} data-testid="new-share-alloc-check">
            {differs.length === 0 ? (
              <Tag icon={<CheckCircleOutlined />} color="success" style={{ whiteSpace: 'normal' }}>
                {t('newShares.alloc.matches')}
              </Tag>
            ) : (
              <Tag icon={<CloseCircleOutlined />} color="error" style={{ whiteSpace: 'normal' }}>
                {t('newShares.alloc.differs', { parts: differs.join(', ') })}
              </Tag>
            )}
          </div>
          <PublishedText
            label={t('newShares.alloc.seed')}
            value={allocation.seed}
            testId="new-share-alloc-seed"
            maxHeight={60}
          />
          <PublishedText
            label={t('newShares.alloc.input')}
            value={allocation.input}
            testId="new-share-alloc-input"
          />
          <PublishedText
            label={t('newShares.alloc.result')}
            value={allocation.result}
            testId="new-share-alloc-result"
          />
        </>
      )}
    </Drawer>
  );
}
