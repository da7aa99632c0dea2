/**
 * The filters of a review queue: the status (under review first) and a user's id, as the list
 * call takes them (reviewListQuery), and a refresh; beside it, whether changes arrive as they
 * happen or the queue reads itself every few seconds.
 */
import { useState } from 'react';
import { ReloadOutlined } from '@ant-design/icons';
import { Badge, Button, InputNumber, Segmented, Space, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { STATUSES, type RequestKind } from '../lib/requests';
import { ToolbarRow } from './cells';

export type StatusFilter = number | 'all';

export function QueueToolbar({
  kind,
  status,
  onStatus,
  onUser,
  onRefresh,
  refreshing,
  live,
}: {
  kind: RequestKind;
  status: StatusFilter;
  onStatus(status: StatusFilter): void;
  onUser(userId: number | undefined): void;
  onRefresh(): void;
  refreshing: boolean;
  /** Changes arrive as they happen. */
  live: boolean;
}) {
  const { t } = useTranslation();
  const [userId, setUserId] = useState<number | null>(null);
  const options = [
    ...Object.entries(STATUSES[kind]).map(([name, code]) => ({
      value: code as StatusFilter,
      label: t(`status.${name as 'reviewing'}`),
    })),
    { value: 'all' as StatusFilter, label: t('common.all') },
  ];
  return (
    <ToolbarRow>
      <Segmented<StatusFilter>
        options={options}
        value={status}
        onChange={onStatus}
        data-testid="status-filter"
      />
      <Space>
        <Tooltip title={t(live ? 'review.liveHelp' : 'review.pollingHelp')}>
          <Badge
            status={live ? 'processing' : 'default'}
            text={t(live ? 'review.live' : 'review.polling')}
            data-testid="queue-live"
            data-live={live}
          />
        </Tooltip>
        <Space.Compact>
          <InputNumber<number>
            min={1}
            max={2_147_483_647}
            precision={0}
            placeholder={t('review.userId')}
            value={userId}
            onChange={(value) => setUserId(value)}
            onPressEnter={() => onUser(userId ?? undefined)}
            style={{ width: 160 }}
            data-testid="user-filter"
          />
          <Button onClick={() => onUser(userId ?? undefined)}>{t('common.search')}</Button>
        </Space.Compact>
        <Tooltip title={t('common.refresh')}>
          <Button
            icon={<ReloadOutlined />}
            onClick={onRefresh}
            loading={refreshing}
            aria-label={t('common.refresh')}
          />
        </Tooltip>
      </Space>
    </ToolbarRow>
  );
}
