/** An activity's status tag and time window, as the list and the detail show them. */
import { Tag } from 'antd-mobile';
import { formatDateTime, type ActivityStatus } from '@bourse/shared';
import { translate } from '../../i18n';
import { useTranslation } from '../../i18n/react';

const STATUS_COLOR: Record<ActivityStatus, string> = {
  upcoming: 'primary',
  ongoing: 'success',
  ended: 'default',
};

export function ActivityStatusTag({ status }: { status: ActivityStatus }) {
  const { t } = useTranslation();
  return (
    <Tag color={STATUS_COLOR[status]} fill="outline" data-testid="activity-status">
      {t(`content_activity_${status}`)}
    </Tag>
  );
}

/**
 * A time as its own left-to-right run (Unicode isolates), so in Arabic a date and its time of day
 * are not reordered by the sentence around them.
 */
function isolated(iso: string): string {
  return `\u2066${formatDateTime(iso)}\u2069`;
}

export function ActivityWindow({
  startTime,
  endTime,
}: {
  startTime: string | null;
  endTime: string | null;
}) {
  useTranslation(); // renders again when the language changes
  if (!startTime && !endTime) return null;
  const text =
    startTime && endTime
      ? translate('content_activityWindow', [isolated(startTime), isolated(endTime)])
      : startTime
        ? translate('content_activityFrom', [isolated(startTime)])
        : translate('content_activityUntil', [isolated(endTime!)]);
  return <span className="muted content-window">{text}</span>;
}
