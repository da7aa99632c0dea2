/**
 * The task centre (/pages/user/welfare): the campaigns running, coming and lately ended, each with
 * its period and what it states about the rewards (by default nothing: they go to the available
 * balance with no turnover requirement or withdrawal lock), and its tasks, each with its reward,
 * its condition, its end, the user's progress and its state (to do, done and paid, budget spent,
 * ended). Completion is read by the server from what the user did: nothing here declares it.
 */
import { Button, ProgressBar } from 'antd-mobile';
import {
  div,
  formatDateTime,
  formatMessage,
  isPositive,
  mul,
  type WelfareCampaign,
  type WelfareTask,
} from '@bourse/shared';
import { SignedInScreen } from '../../components/signed-in-screen';
import {
  EmptyState,
  ErrorState,
  ListSkeleton,
  Num,
  Refreshable,
} from '../../components/status-views';
import { useTranslation } from '../../i18n/react';
import { navigateTo } from '../../lib/navigation';
import { useWelfare } from './api';
import { TASK_ROUTE, taskRule, taskTitle } from './task-text';
import './rewards.css';

const STATUS_KEY: Record<WelfareCampaign['status'], string> = {
  upcoming: 'welfare_campaignUpcoming',
  running: 'welfare_campaignRunning',
  ended: 'welfare_campaignEnded',
};

/**
 * Progress of a volume task as a whole percentage of its target, 0–100, worked out in decimals
 * (the amounts never pass through a JS number; only the bar's width does).
 */
function share(progress: string, target: string): number {
  if (!isPositive(target)) return 0;
  const percent = Number(div(mul(progress, '100'), target, 0, 'down'));
  return Math.max(0, Math.min(100, percent));
}

function TaskItem({ task, campaign }: { task: WelfareTask; campaign: WelfareCampaign }) {
  const { t } = useTranslation();
  const volume = task.kind === 'volume';
  return (
    <li className="rw-task" data-testid={`task-${task.id}`} data-status={task.status}>
      <div className="rw-task-head">
        <strong className="rw-task-title">{taskTitle(t, task)}</strong>
        <span className="rw-reward" data-testid={`task-${task.id}-reward`}>
          <Num>
            +{task.reward} {task.currency}
          </Num>
        </span>
      </div>
      <p className="rw-rule">{taskRule(t, task)}</p>
      {volume && task.status !== 'paid' && (
        <div className="rw-progress">
          {/* A bar for the eye; the figures are the decimal strings the server gave. */}
          <ProgressBar percent={share(task.progress, task.target)} />
          <span className="rw-muted">
            {t('welfare_progress')}{' '}
            <Num>
              {task.progress} / {task.target} {task.currency}
            </Num>
          </span>
        </div>
      )}
      {campaign.withdrawCondition && (
        <p className="rw-condition" data-testid={`task-${task.id}-condition`}>
          {formatMessage(t('welfare_condition'), [campaign.withdrawCondition])}
        </p>
      )}
      <div className="rw-task-foot">
        <span className="rw-muted">
          {t('welfare_ends')} <Num>{formatDateTime(campaign.endTime)}</Num>
        </span>
        {task.status === 'todo' ? (
          <Button
            size="mini"
            color="primary"
            data-testid={`task-${task.id}-go`}
            onClick={() => navigateTo(TASK_ROUTE[task.kind])}
          >
            {t('welfare_go')}
          </Button>
        ) : (
          <span
            className={`rw-status rw-status-${task.status}`}
            data-testid={`task-${task.id}-status`}
          >
            {t(`taskStatus_${task.status}`)}
          </span>
        )}
      </div>
    </li>
  );
}

function CampaignCard({ campaign }: { campaign: WelfareCampaign }) {
  const { t } = useTranslation();
  return (
    <section className="card rw-campaign" data-testid={`campaign-${campaign.id}`}>
      <header className="rw-campaign-head">
        <h2>{campaign.title}</h2>
        <span className={`rw-tag rw-tag-${campaign.status}`}>{t(STATUS_KEY[campaign.status])}</span>
      </header>
      {campaign.description && <p className="rw-desc">{campaign.description}</p>}
      <p className="rw-muted">
        {t('welfare_period')}{' '}
        <Num>
          {formatDateTime(campaign.startTime)} – {formatDateTime(campaign.endTime)}
        </Num>
      </p>
      {campaign.budgetSpent && campaign.status !== 'ended' && (
        <p className="rw-warning" data-testid={`campaign-${campaign.id}-spent`}>
          {t('welfare_budgetSpent')}
        </p>
      )}
      {!campaign.withdrawCondition && <p className="rw-free">{t('welfare_noStrings')}</p>}
      <ul className="rw-tasks">
        {campaign.tasks.map((task) => (
          <TaskItem key={task.id} task={task} campaign={campaign} />
        ))}
      </ul>
    </section>
  );
}

export default function WelfarePage() {
  const { t } = useTranslation();
  const welfare = useWelfare();
  const refresh = () => welfare.refetch();
  return (
    <SignedInScreen
      testId="welfare-page"
      title={t('welfare_title')}
      right={
        <button
          type="button"
          className="link"
          data-testid="welfare-records"
          onClick={() => navigateTo('award')}
          style={{ fontSize: 14 }}
        >
          {t('award_title')}
        </button>
      }
    >
      {welfare.data?.liveOnly && (
        <p className="rw-note" data-testid="welfare-live-only">
          {t('welfare_liveOnly')}
        </p>
      )}
      {welfare.isPending ? (
        <ListSkeleton />
      ) : welfare.isError && !welfare.data ? (
        <ErrorState onRetry={() => void refresh()} />
      ) : (
        <Refreshable onRefresh={refresh}>
          {welfare.data && welfare.data.campaigns.length === 0 ? (
            <EmptyState title={t('welfare_empty')} testId="welfare-empty" />
          ) : (
            <div className="rw-list">
              {welfare.data?.campaigns.map((campaign) => (
                <CampaignCard key={campaign.id} campaign={campaign} />
              ))}
            </div>
          )}
        </Refreshable>
      )}
    </SignedInScreen>
  );
}
