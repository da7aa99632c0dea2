/**
 * Identity verification, advanced level (authentication1): the front and back of the document
 * and a photo holding it. It needs the basic level approved, with the same name: the screen says
 * so before the user starts, with the way to the basic level. Then, as there, the form (none
 * yet, or rejected with the reason), the request under review with its images, or approved.
 */
import { Button } from 'antd-mobile';
import { InformationCircleOutline } from 'antd-mobile-icons';
import { AUTH_LEVEL, AUTH_RECORD_STATUS } from '@bourse/shared';
import { SignedInScreen } from '../../components/signed-in-screen';
import { ErrorState, ListSkeleton } from '../../components/status-views';
import { useTranslation } from '../../i18n/react';
import { navigateTo } from '../../lib/navigation';
import { useAuthDetail, type AuthRecord } from './api';
import { DocumentImages, RejectedNotice, SubmittedRecord } from './parts';
import { VerificationForm } from './verification-form';

/** The basic level is not approved yet: what to do first, and no form. */
function BasicFirst({ basic }: { basic: AuthRecord }) {
  const { t } = useTranslation();
  return (
    <section className="card stack" role="note" data-testid="identity-basic-first">
      <div className="id-state id-state-reviewing">
        <InformationCircleOutline />
        <span className="stack" style={{ gap: 4 }}>
          <strong>{t('identity_basicFirstTitle')}</strong>
          <span className="muted">
            {t(
              basic.status === AUTH_RECORD_STATUS.reviewing
                ? 'identity_basicFirstReviewing'
                : 'identity_basicFirstText',
            )}
          </span>
        </span>
      </div>
      <Button
        block
        color="primary"
        fill={basic.status === AUTH_RECORD_STATUS.reviewing ? 'outline' : 'solid'}
        onClick={() => navigateTo('authentication')}
        data-testid="to-basic"
      >
        {t('identity_toBasic')}
      </Button>
    </section>
  );
}

function AdvancedRequest({ record, basic }: { record: AuthRecord; basic: AuthRecord }) {
  switch (record.status) {
    case AUTH_RECORD_STATUS.reviewing:
    case AUTH_RECORD_STATUS.approved:
      return (
        <SubmittedRecord record={record}>
          <DocumentImages record={record} />
        </SubmittedRecord>
      );
    case AUTH_RECORD_STATUS.rejected:
      return (
        <>
          <RejectedNotice record={record} />
          <VerificationForm
            key={record.id ?? 'new'}
            level={AUTH_LEVEL.advanced}
            previous={record}
            basicName={basic.realName}
          />
        </>
      );
    default:
      return <VerificationForm level={AUTH_LEVEL.advanced} basicName={basic.realName} />;
  }
}

export default function Authentication1Page() {
  const { t } = useTranslation();
  const basic = useAuthDetail(AUTH_LEVEL.basic);
  const approved = basic.data?.status === AUTH_RECORD_STATUS.approved;
  const advanced = useAuthDetail(AUTH_LEVEL.advanced, { enabled: approved });
  const failed = basic.isError || advanced.isError;
  // What the level asks for, while the user may still send it (not under review or approved).
  const asking =
    (basic.data && !approved) ||
    advanced.data?.status === AUTH_RECORD_STATUS.none ||
    advanced.data?.status === AUTH_RECORD_STATUS.rejected;

  let content: React.ReactNode;
  if (basic.data && !approved) content = <BasicFirst basic={basic.data} />;
  else if (basic.data && advanced.data)
    content = <AdvancedRequest record={advanced.data} basic={basic.data} />;
  else if (failed)
    content = (
      <ErrorState
        onRetry={() => {
          void basic.refetch();
          if (approved) void advanced.refetch();
        }}
      />
    );
  else content = <ListSkeleton rows={3} />;

  return (
    <SignedInScreen testId="authentication1-page" title={t('page_authentication1')}>
      <div className="page-body stack">
        {asking && (
          <p className="notice">
            <InformationCircleOutline />
            {t('identity_advancedIntro')}
          </p>
        )}
        {content}
      </div>
    </SignedInScreen>
  );
}
