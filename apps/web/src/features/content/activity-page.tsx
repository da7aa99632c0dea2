/**
 * /pages/activity/index: the activities running now and those to come (ended ones are not
 * listed), each with its picture, status and time window; opens its detail.
 */
import { Button } from 'antd-mobile';
import { useTranslation } from '../../i18n/react';
import { PageHeader } from '../../components/page-header';
import { ListStatus } from '../../components/status-views';
import { navigateTo } from '../../lib/navigation';
import { contentImageSource, useActivities } from './api';
import { ActivityStatusTag, ActivityWindow } from './activity-parts';
import './content.css';

export default function ActivityPage() {
  const { t } = useTranslation();
  const activities = useActivities();
  return (
    <div className="page" data-testid="activity-page">
      <PageHeader title={t('area_activity')} />
      <div className="content-cards">
        <ListStatus
          list={{ loaded: activities.loaded }}
          count={activities.rows.length}
          empty={{ testId: 'activity-empty', title: t('content_activityEmpty') }}
        />
        {activities.rows.map((row) => (
          <button
            key={row.id}
            type="button"
            className="card content-activity"
            data-testid={`activity-${row.id}`}
            onClick={() => navigateTo('activityDetail', { id: row.id })}
          >
            {row.image && (
              <img className="content-activity-image" src={contentImageSource(row.image)} alt="" />
            )}
            <span className="content-activity-body">
              <span className="content-activity-head">
                <strong>{row.title}</strong>
                <ActivityStatusTag status={row.status} />
              </span>
              {row.summary && <span className="muted content-summary">{row.summary}</span>}
              <ActivityWindow startTime={row.startTime} endTime={row.endTime} />
            </span>
          </button>
        ))}
        {activities.hasMore && (
          <Button block fill="none" loading={activities.loadingMore} onClick={activities.loadMore}>
            {t('content_loadMore')}
          </Button>
        )}
      </div>
    </div>
  );
}
