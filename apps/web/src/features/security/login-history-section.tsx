/**
 * Login history: every sign-in attempt on the account in the last 90 days, newest first, loaded
 * page by page while scrolling: when, from which address and device, and how it ended (signed in,
 * wrong password, locked out, account disabled, two-factor code failed).
 */
import { formatDateTime, type LoginAttempt, type LoginResult } from '@bourse/shared';
import { RecordList, useRecordPages } from '../../components/record-list';
import { useTranslation } from '../../i18n/react';
import { fetchLoginHistory } from './api';
import { Badge, DeviceHeading, Line } from './parts';

const RESULT_COLOR: Record<LoginResult, string> = {
  success: 'var(--success)',
  wrongPassword: 'var(--danger)',
  locked: 'var(--danger)',
  disabled: 'var(--danger)',
  twoFactorFailed: 'var(--danger)',
};

function AttemptRow({ attempt }: { attempt: LoginAttempt }) {
  const { t } = useTranslation();
  return (
    <article
      className="card stack"
      style={{ gap: 8 }}
      data-testid="security-attempt"
      data-result={attempt.result}
    >
      <DeviceHeading device={attempt.device}>
        <Badge color={RESULT_COLOR[attempt.result]} testId="security-attempt-result">
          {t(`security_result_${attempt.result}`)}
        </Badge>
      </DeviceHeading>
      <Line label={t('security_time')}>{formatDateTime(attempt.time)}</Line>
      <Line label={t('security_address')}>
        <bdi>{attempt.ip ?? '- -'}</bdi>
      </Line>
    </article>
  );
}

export function LoginHistorySection() {
  const { t } = useTranslation();
  const list = useRecordPages(['securityLoginHistory'], (page) => fetchLoginHistory(page));
  return (
    <div className="page-body stack" data-testid="security-history" style={{ gap: 12 }}>
      <p className="muted" style={{ margin: 0 }}>
        {t('security_historyIntro')}
      </p>
      <RecordList
        list={list}
        endTestId="security-history-end"
        empty={{ testId: 'security-history-empty', title: t('security_historyEmpty') }}
      >
        {list.rows.map((attempt) => (
          <AttemptRow key={attempt.id} attempt={attempt} />
        ))}
      </RecordList>
    </div>
  );
}
