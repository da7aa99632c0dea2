/**
 * A lead trader's dashboard (/pages/followOrder/leadDashboard): followers now, the profit shares
 * received in all, the assets under copy; the income per UTC day (shares due, paid, settlements);
 * and each follower (masked) with their budget, open copies, cumulative net P&L of the copies, the
 * high-water mark, the income from them and anything still owed.
 */
import { isPositive } from '@bourse/shared';
import { SignedInScreen } from '../../components/signed-in-screen';
import { EmptyState, ListSkeleton, Num } from '../../components/status-views';
import { useTranslation } from '../../i18n/react';
import { navigateTo } from '../../lib/navigation';
import { useLeadDashboard, type LeadDashboard } from './api';
import {
  BookTag,
  Line,
  RelationStatusTag,
  Stat,
  Toned,
  amountText,
  pnlText,
  timeText,
} from './copy-parts';

function Dashboard({ dashboard }: { dashboard: LeadDashboard }) {
  const { t } = useTranslation();
  const currency = dashboard.currency;
  const money = (value: string) => amountText(value, currency);
  return (
    <div className="card-list">
      <section className="card stack" data-testid="copy-dashboard-summary">
        <div className="ct-stats">
          <Stat label={t('copy_followersNow')}>
            <Num testId="copy-dashboard-followers">{dashboard.followersNow}</Num>
          </Stat>
          <Stat label={t('copy_incomeTotal')}>
            <Num testId="copy-dashboard-income">{money(dashboard.incomeTotal)}</Num>
          </Stat>
          <Stat label={t('copy_assetsUnderCopy')} end>
            <Num>{money(dashboard.assetsUnderCopy)}</Num>
          </Stat>
        </div>
      </section>
      <section className="card stack" data-testid="copy-dashboard-days">
        <h2 className="section-title ct-section-title">{t('copy_incomePerDay')}</h2>
        {dashboard.incomePerDay.length === 0 ? (
          <EmptyState compact title={t('copy_noIncome')} testId="copy-dashboard-days-empty" />
        ) : (
          <ul className="card-items">
            {dashboard.incomePerDay.map((day) => (
              <li
                key={`${day.day}:${day.book}`}
                className="ct-day-row"
                data-testid={`copy-dashboard-day-${day.day}`}
              >
                <span>
                  <Num>{day.day}</Num> <BookTag book={day.book} />
                </span>
                <Num>{money(day.paid)}</Num>
                <span className="muted ct-note">
                  {t('copy_share')} <Num>{money(day.share)}</Num>
                </span>
                <span className="muted ct-note">
                  {t('copy_settlementsCount')} <Num>{day.settlements}</Num>
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section className="card stack" data-testid="copy-dashboard-followers-list">
        <h2 className="section-title ct-section-title">{t('copy_followersList')}</h2>
        {dashboard.followers.length === 0 ? (
          <EmptyState
            compact
            title={t('copy_noFollowers')}
            testId="copy-dashboard-followers-empty"
          />
        ) : (
          <ul className="card-items ct-positions">
            {dashboard.followers.map((follower) => (
              <li
                key={follower.relationId}
                className="ct-position"
                data-testid={`copy-dashboard-follower-${follower.relationId}`}
              >
                <div className="ct-position-head">
                  <strong>{follower.followerName}</strong>
                  <span className="spacer" />
                  <BookTag book={follower.book} />
                  <RelationStatusTag status={follower.status} />
                </div>
                <Line
                  label={t('copy_cumPnl')}
                  value={
                    <Toned value={follower.cumPnl}>{pnlText(follower.cumPnl, currency)}</Toned>
                  }
                  number={false}
                />
                <Line label={t('copy_hwm')} value={money(follower.hwm)} />
                <Line
                  label={t('copy_incomeFrom')}
                  value={money(follower.sharePaid)}
                  testId={`copy-dashboard-follower-${follower.relationId}-income`}
                  strong
                />
                {isPositive(follower.owed) && (
                  <Line label={t('copy_owed')} value={money(follower.owed)} />
                )}
                <Line label={t('copy_budget')} value={money(follower.budget)} />
                <Line label={t('copy_openCopies')} value={String(follower.openCopies)} />
                <Line label={t('copy_since')} value={timeText(follower.createTime)} />
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

export default function LeadDashboardPage() {
  const { t } = useTranslation();
  const dashboard = useLeadDashboard();
  return (
    <SignedInScreen testId="copy-lead-dashboard-page" title={t('copy_dashboard')}>
      {dashboard.isPending ? (
        <ListSkeleton rows={4} />
      ) : dashboard.isError ? (
        <EmptyState
          title={t('copy_notLeader')}
          testId="copy-dashboard-none"
          action={{ label: t('copy_lead'), onClick: () => navigateTo('copyLead') }}
        />
      ) : (
        <Dashboard dashboard={dashboard.data} />
      )}
    </SignedInScreen>
  );
}
