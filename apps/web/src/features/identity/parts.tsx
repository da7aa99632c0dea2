/**
 * What both verification screens show: a level's state (a tag, the request as it was sent, the
 * operator's reason), the two levels side by side, the document images, and what each level
 * unlocks.
 */
import { useEffect, useState } from 'react';
import {
  CheckCircleOutline,
  ClockCircleOutline,
  CloseCircleOutline,
  ExclamationCircleOutline,
  FileOutline,
  PictureOutline,
  RightOutline,
  UserOutline,
} from 'antd-mobile-icons';
import {
  AUTH_DOCUMENT_SIDES,
  AUTH_LEVEL,
  AUTH_RECORD_STATUS,
  formatDateTime,
  ID_TYPE,
  IDENTITY_FEATURES,
  type AuthDocumentSide,
  type IdentityFeature,
} from '@bourse/shared';
import { useTranslation } from '../../i18n/react';
import { Num } from '../../components/status-views';
import { fetchAuthDocument, type AuthRecord, type IdentityRequirements } from './api';
import { reasonText } from './checks';
import './identity.css';

const STATUS: Record<number, { key: string; className: string }> = {
  [AUTH_RECORD_STATUS.none]: { key: 'identity_status_none', className: '' },
  [AUTH_RECORD_STATUS.reviewing]: {
    key: 'identity_status_reviewing',
    className: 'id-tag-reviewing',
  },
  [AUTH_RECORD_STATUS.approved]: { key: 'identity_status_approved', className: 'id-tag-approved' },
  [AUTH_RECORD_STATUS.rejected]: { key: 'identity_status_rejected', className: 'id-tag-rejected' },
};

export const ID_TYPE_LABEL: Record<number, string> = {
  [ID_TYPE.idCard]: 'identity_idType_0',
  [ID_TYPE.drivingLicence]: 'identity_idType_1',
  [ID_TYPE.passport]: 'identity_idType_2',
};

export const LEVEL_LABEL: Record<number, string> = {
  [AUTH_LEVEL.basic]: 'identity_basic',
  [AUTH_LEVEL.advanced]: 'identity_advanced',
};

export const SIDE_LABEL: Record<AuthDocumentSide, string> = {
  front: 'field_frontImage',
  back: 'field_backImage',
  hold: 'field_holdImage',
};

export function AuthStatusTag({ status, testId }: { status: number; testId?: string }) {
  const { t } = useTranslation();
  const shown = STATUS[status] ?? STATUS[AUTH_RECORD_STATUS.none]!;
  return (
    <span
      className={`id-tag ${shown.className}`}
      data-testid={testId ?? 'auth-status'}
      data-status={status}
    >
      {t(shown.key)}
    </span>
  );
}

/**
 * The two levels and where each stands. The advanced one opens its screen once the basic one is
 * approved (before that, the screen would only say so).
 */
export function LevelSteps({
  basic,
  advanced,
  onAdvanced,
}: {
  basic: number | undefined;
  advanced: number | undefined;
  onAdvanced?: () => void;
}) {
  const { t } = useTranslation();
  const advancedOpen = basic === AUTH_RECORD_STATUS.approved && onAdvanced;
  const advancedBody = (
    <>
      <span className="id-level-icon" aria-hidden="true">
        <FileOutline />
      </span>
      <span className="id-level-text">
        <strong>{t('identity_advanced')}</strong>
        <span className="muted">{t('identity_advancedText')}</span>
      </span>
      {advanced !== undefined && <AuthStatusTag status={advanced} testId="advanced-status" />}
      {advancedOpen && <RightOutline className="flip-rtl" aria-hidden="true" />}
    </>
  );
  return (
    <section className="card id-levels" aria-label={t('identity_levels')}>
      <div className="id-level">
        <span className="id-level-icon" aria-hidden="true">
          <UserOutline />
        </span>
        <span className="id-level-text">
          <strong>{t('identity_basic')}</strong>
          <span className="muted">{t('identity_basicText')}</span>
        </span>
        {basic !== undefined && <AuthStatusTag status={basic} testId="basic-status" />}
      </div>
      {advancedOpen ? (
        <button
          type="button"
          className="id-level"
          onClick={onAdvanced}
          data-testid="to-advanced-level"
        >
          {advancedBody}
        </button>
      ) : (
        <div className="id-level">{advancedBody}</div>
      )}
    </section>
  );
}

/** Under review, or approved: what was sent (the number masked) and what happens next. */
export function SubmittedRecord({
  record,
  children,
}: {
  record: AuthRecord;
  children?: React.ReactNode;
}) {
  const { t } = useTranslation();
  const reviewing = record.status === AUTH_RECORD_STATUS.reviewing;
  const rows: [string, React.ReactNode][] = [
    [t('field_realName'), record.realName],
    [t('field_idType'), record.idType === null ? null : t(ID_TYPE_LABEL[record.idType] ?? '')],
    [t('field_idNumber'), record.idNumber && <Num testId="auth-id-number">{record.idNumber}</Num>],
    [t('field_phone'), record.phone && <Num>{record.phone}</Num>],
    [
      t('identity_submittedAt'),
      record.createTime && <Num>{formatDateTime(record.createTime)}</Num>,
    ],
    [t('identity_reviewedAt'), record.reviewTime && <Num>{formatDateTime(record.reviewTime)}</Num>],
  ];
  return (
    <section className="card stack id-record" data-testid="auth-record">
      <div className="row">
        <h2 className="id-section-title">{t(LEVEL_LABEL[record.authLevel] ?? 'identity_basic')}</h2>
        <span className="spacer" />
        <AuthStatusTag status={record.status} />
      </div>
      <div
        className={`id-state ${reviewing ? 'id-state-reviewing' : 'id-state-approved'}`}
        role="status"
        data-testid={reviewing ? 'auth-reviewing' : 'auth-approved'}
      >
        {reviewing ? <ClockCircleOutline /> : <CheckCircleOutline />}
        <span>
          {t(
            reviewing
              ? 'identity_reviewingText'
              : record.authLevel === AUTH_LEVEL.advanced
                ? 'identity_advancedApprovedText'
                : 'identity_approvedText',
          )}
        </span>
      </div>
      <dl>
        {rows
          .filter(([, value]) => value)
          .map(([label, value]) => (
            <div key={label} style={{ display: 'contents' }}>
              <dt>{label}</dt>
              <dd>{value}</dd>
            </div>
          ))}
      </dl>
      {children}
    </section>
  );
}

/** A rejected request: the operator's reason (translated when it is a message key). */
export function RejectedNotice({ record }: { record: AuthRecord }) {
  const { t, i18n } = useTranslation();
  return (
    <section className="card stack id-rejected" role="alert" data-testid="auth-rejected">
      <div className="id-state">
        <CloseCircleOutline />
        <span className="stack" style={{ gap: 4 }}>
          <strong>{t('identity_rejectedTitle')}</strong>
          <span className="muted">{t('identity_rejectedText')}</span>
        </span>
      </div>
      {record.rejectReason && (
        <p className="id-reason" data-testid="auth-reject-reason">
          <span className="muted">{t('identity_reason')}: </span>
          {reasonText(record.rejectReason, i18n.exists, t)}
        </p>
      )}
    </section>
  );
}

/** A document image of the user's own request as an object URL, released when it goes. */
function useDocumentUrl(id: number, side: AuthDocumentSide) {
  const [state, setState] = useState<{ key: string; url?: string; failed: boolean }>();
  const key = `${id}:${side}`;
  useEffect(() => {
    const abort = new AbortController();
    let url: string | undefined;
    void fetchAuthDocument(id, side, abort.signal).then((blob) => {
      if (abort.signal.aborted) return;
      if (!blob) return setState({ key, failed: true });
      url = URL.createObjectURL(blob);
      setState({ key, url, failed: false });
    });
    return () => {
      abort.abort();
      if (url) URL.revokeObjectURL(url);
    };
  }, [id, side, key]);
  return state?.key === key ? state : undefined;
}

function DocumentImage({ id, side }: { id: number; side: AuthDocumentSide }) {
  const { t } = useTranslation();
  const shown = useDocumentUrl(id, side);
  return (
    <figure data-testid={`auth-document-${side}`}>
      {shown?.url ? (
        <img src={shown.url} alt={t(SIDE_LABEL[side])} />
      ) : (
        <span className="id-document-missing" aria-busy={!shown}>
          {shown?.failed ? (
            <ExclamationCircleOutline aria-label={t('identity_documentUnavailable')} />
          ) : (
            <PictureOutline aria-hidden="true" />
          )}
        </span>
      )}
      <figcaption>{t(SIDE_LABEL[side])}</figcaption>
    </figure>
  );
}

/** The images of an advanced request, as the user sent them (served to the owner only). */
export function DocumentImages({ record }: { record: AuthRecord }) {
  if (record.id === null || record.documents.length === 0) return null;
  const id = record.id;
  return (
    <div className="id-documents">
      {AUTH_DOCUMENT_SIDES.filter((side) => record.documents.includes(side)).map((side) => (
        <DocumentImage key={side} id={id} side={side} />
      ))}
    </div>
  );
}

/** The features in the platform's order (withdrawals first), whatever order the answer has. */
function inFeatureOrder<T extends { feature: IdentityFeature }>(items: readonly T[]): T[] {
  return [...items].sort(
    (a, b) => IDENTITY_FEATURES.indexOf(a.feature) - IDENTITY_FEATURES.indexOf(b.feature),
  );
}

/** Which features need which level, and which the user has already: before they try. */
export function RequirementsCard({ requirements }: { requirements: IdentityRequirements }) {
  const { t } = useTranslation();
  return (
    <section className="card stack" data-testid="identity-requirements">
      <h2 className="id-section-title">{t('identity_unlocksTitle')}</h2>
      <ul className="id-requirements">
        {inFeatureOrder(requirements.requirements).map((item) => (
          <li key={item.feature} data-testid={`requirement-${item.feature}`} data-met={item.met}>
            {item.met ? (
              <CheckCircleOutline className="id-met" aria-hidden="true" />
            ) : (
              <ClockCircleOutline className="id-unmet" aria-hidden="true" />
            )}
            <span className="stack" style={{ gap: 2, flex: 1 }}>
              <span>{t(`identity_feature_${item.feature}`)}</span>
              <span className="muted">
                {t(item.minLevel < 0 ? 'identity_needs_none' : `identity_needs_${item.minLevel}`)}
              </span>
            </span>
            <span className={item.met ? 'id-met' : 'id-unmet'} style={{ fontSize: 12 }}>
              {t(item.met ? 'identity_met' : 'identity_notMet')}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
