/**
 * Leading (/pages/followOrder/lead): before approval, what applying needs — the track record
 * (closed live contract positions now against the console's minimum) and the identity level —,
 * each met or not, the latest application's state (pending, or rejected with the operator's
 * reason) and Apply; once approved, the trader's state (active, or suspended with the reason),
 * their terms, and the ways to the profile editor, the dashboard and the public profile.
 */
import { Button } from 'antd-mobile';
import { CheckCircleOutline, CloseCircleOutline } from 'antd-mobile-icons';
import { useQueryClient } from '@tanstack/react-query';
import { APPLICATION_STATUS, TRADER_STATUS, formatMessage } from '@bourse/shared';
import { SignedInScreen } from '../../components/signed-in-screen';
import { ErrorState, ListSkeleton, Num } from '../../components/status-views';
import { useSubmit } from '../../hooks/use-submit';
import { useTranslation } from '../../i18n/react';
import { navigateTo } from '../../lib/navigation';
import { showToast } from '../../lib/toast';
import { useRequestId } from '../../lib/trade';
import { applyToLead, copyKeys, useLeadStatus, type LeadStatus } from './api';
import {
  ApplicationStatusTag,
  Line,
  TraderStatusTag,
  amountText,
  timeText,
  figureMessage,
} from './copy-parts';
import { fractionPercent } from './figures';

function Check({
  met,
  children,
  testId,
}: {
  met: boolean;
  children: React.ReactNode;
  testId: string;
}) {
  return (
    <div className="ct-check" data-testid={testId} data-met={met}>
      {met ? (
        <CheckCircleOutline className="ct-check-ok" aria-hidden="true" />
      ) : (
        <CloseCircleOutline className="ct-check-no" aria-hidden="true" />
      )}
      <span>{children}</span>
    </div>
  );
}

function Apply({ status }: { status: LeadStatus }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const request = useRequestId('lead');
  const application = status.application;
  const pending = application?.status === APPLICATION_STATUS.pending;
  const recordMet = status.closedTrades >= status.minClosedTrades;
  const apply = useSubmit(async () => {
    await applyToLead(request.idFor('apply'));
    request.reset();
    showToast(t('copy_applied'));
    await queryClient.invalidateQueries({ queryKey: copyKeys.lead });
  });
  return (
    <section className="card stack" data-testid="copy-lead-apply">
      <h2 className="section-title ct-section-title">{t('copy_applyTitle')}</h2>
      <p className="ct-note">{t('copy_applyIntro')}</p>
      <Check met={recordMet} testId="copy-lead-record">
        {figureMessage(t('copy_trackRecord'), [status.minClosedTrades])}{' '}
        <Num>
          ({status.closedTrades}/{status.minClosedTrades})
        </Num>
      </Check>
      <Check met={status.identityMet} testId="copy-lead-identity">
        {t('copy_identityGate')}
      </Check>
      {!status.identityMet && (
        <Button
          size="small"
          fill="outline"
          data-testid="copy-lead-verify"
          onClick={() => navigateTo('authentication')}
        >
          {t('copy_verifyNow')}
        </Button>
      )}
      {application && (
        <div className="ct-terms" data-testid="copy-lead-application">
          <div className="row">
            <span className="muted">{t('copy_application')}</span>
            <span className="spacer" />
            <ApplicationStatusTag status={application.status} />
          </div>
          <Line label={t('copy_appliedAt')} value={timeText(application.createTime)} />
          {application.status === APPLICATION_STATUS.rejected && application.reason && (
            <p className="ct-reason" data-testid="copy-lead-rejected">
              {formatMessage(t('copy_rejectedReason'), [application.reason])}
            </p>
          )}
        </div>
      )}
      <Button
        block
        color="primary"
        disabled={pending || !recordMet || !status.identityMet}
        loading={apply.pending}
        data-testid="copy-lead-apply-button"
        onClick={() => void apply.submit()}
      >
        {t(pending ? 'copy_applicationPending' : 'copy_apply')}
      </Button>
    </section>
  );
}

function Leading({ status }: { status: LeadStatus }) {
  const { t } = useTranslation();
  const trader = status.trader!;
  const money = (value: string) => amountText(value, trader.currency);
  return (
    <section className="card stack" data-testid="copy-lead-trader">
      <div className="row">
        <h2 className="section-title ct-section-title">{t('copy_youLead')}</h2>
        <span className="spacer" />
        {trader.status === TRADER_STATUS.active ? (
          <span className="list-tag list-tag-success">{t('copy_statusActive')}</span>
        ) : (
          <TraderStatusTag status={trader.status} />
        )}
      </div>
      {trader.status === TRADER_STATUS.suspended && trader.suspendedReason && (
        <p className="ct-reason" data-testid="copy-lead-suspended">
          {formatMessage(t('copy_suspendedReason'), [trader.suspendedReason])}
        </p>
      )}
      <div className="ct-terms">
        <Line
          label={t('copy_shareRate')}
          value={fractionPercent(trader.profitShareRate)}
          testId="copy-lead-rate"
        />
        <Line
          label={t('copy_copyAmounts')}
          value={
            trader.maxCopyAmount === null
              ? figureMessage(t('copy_fromAmount'), [money(trader.minCopyAmount)])
              : `${money(trader.minCopyAmount)} – ${money(trader.maxCopyAmount)}`
          }
        />
        <Line
          label={t('copy_followersNow')}
          value={`${trader.followers}/${trader.maxFollowers}`}
          testId="copy-lead-followers"
        />
        <Line label={t('copy_leadingSince')} value={timeText(trader.approvedAt)} />
      </div>
      <Button
        block
        color="primary"
        data-testid="copy-lead-edit"
        onClick={() => navigateTo('copyLeadProfile')}
      >
        {t('copy_editProfile')}
      </Button>
      <Button
        block
        fill="outline"
        data-testid="copy-lead-dashboard"
        onClick={() => navigateTo('copyLeadDashboard')}
      >
        {t('copy_dashboard')}
      </Button>
      <Button
        block
        fill="outline"
        data-testid="copy-lead-public"
        onClick={() => navigateTo('copyTrader', { traderId: trader.traderId })}
      >
        {t('copy_publicProfile')}
      </Button>
    </section>
  );
}

export default function LeadPage() {
  const { t } = useTranslation();
  const status = useLeadStatus();
  return (
    <SignedInScreen testId="copy-lead-page" title={t('copy_lead')}>
      <div className="card-list">
        {status.isPending ? (
          <ListSkeleton rows={3} />
        ) : status.isError ? (
          <ErrorState onRetry={() => void status.refetch()} />
        ) : status.data.trader ? (
          <Leading status={status.data} />
        ) : (
          <Apply status={status.data} />
        )}
        <p className="ct-note">
          {status.data &&
            figureMessage(t('copy_leadNote'), [fractionPercent(status.data.maxProfitShareRate)])}
        </p>
      </div>
    </SignedInScreen>
  );
}
