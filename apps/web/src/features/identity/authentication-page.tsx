/**
 * Identity verification, basic level (authentication): where both levels stand, then the basic
 * request as it is now: the form (none yet, or rejected with the operator's reason), the request
 * under review (no change meanwhile), or approved, with the way on to the advanced level. Under
 * it, what each level unlocks, so users know before they try.
 */
import { Button } from 'antd-mobile';
import { AUTH_LEVEL, AUTH_RECORD_STATUS } from '@bourse/shared';
import { SignedInScreen } from '../../components/signed-in-screen';
import { ErrorState, ListSkeleton } from '../../components/status-views';
import { usePageConfig } from '../../hooks/use-page-config';
import { useTranslation } from '../../i18n/react';
import { navigateTo } from '../../lib/navigation';
import { useAuthDetail, useIdentityRequirements, type AuthRecord } from './api';
import { LevelSteps, RejectedNotice, RequirementsCard, SubmittedRecord } from './parts';
import { VerificationForm } from './verification-form';

function BasicRequest({ record, advanced }: { record: AuthRecord; advanced: number | undefined }) {
  const { t } = useTranslation();
  // The operator's page configuration can hide the phone (module `phone`); it shows otherwise.
  const visible = usePageConfig('pages/user/authentication');
  switch (record.status) {
    case AUTH_RECORD_STATUS.reviewing:
      return <SubmittedRecord record={record} />;
    case AUTH_RECORD_STATUS.approved:
      return (
        <SubmittedRecord record={record}>
          {advanced !== AUTH_RECORD_STATUS.approved && (
            <Button
              block
              color="primary"
              onClick={() => navigateTo('authentication1')}
              data-testid="to-advanced"
            >
              {t(
                advanced === AUTH_RECORD_STATUS.reviewing
                  ? 'identity_viewAdvanced'
                  : 'identity_toAdvanced',
              )}
            </Button>
          )}
        </SubmittedRecord>
      );
    case AUTH_RECORD_STATUS.rejected:
      return (
        <>
          <RejectedNotice record={record} />
          <VerificationForm
            key={record.id ?? 'new'}
            level={AUTH_LEVEL.basic}
            previous={record}
            askPhone={visible('phone')}
          />
        </>
      );
    default:
      return <VerificationForm level={AUTH_LEVEL.basic} askPhone={visible('phone')} />;
  }
}

export default function AuthenticationPage() {
  const { t } = useTranslation();
  const basic = useAuthDetail(AUTH_LEVEL.basic);
  const approved = basic.data?.status === AUTH_RECORD_STATUS.approved;
  const advanced = useAuthDetail(AUTH_LEVEL.advanced, { enabled: approved });
  const requirements = useIdentityRequirements();
  const advancedStatus = approved ? advanced.data?.status : AUTH_RECORD_STATUS.none;

  return (
    <SignedInScreen testId="authentication-page" title={t('page_authentication')}>
      <div className="page-body stack">
        <LevelSteps
          basic={basic.data?.status}
          advanced={advancedStatus}
          onAdvanced={() => navigateTo('authentication1')}
        />
        {basic.data ? (
          <BasicRequest record={basic.data} advanced={advancedStatus} />
        ) : basic.isError ? (
          <ErrorState onRetry={() => void basic.refetch()} />
        ) : (
          <ListSkeleton rows={3} />
        )}
        {requirements.data && requirements.data.requirements.length > 0 && (
          <RequirementsCard requirements={requirements.data} />
        )}
      </div>
    </SignedInScreen>
  );
}
