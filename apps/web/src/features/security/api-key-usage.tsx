/**
 * The usage log of one API key: every call made with it in the last 30 days, newest first, loaded
 * page by page while scrolling: when, which call, from which address, and whether it was accepted
 * or refused (the HTTP status and why).
 */
import { API_KEY, formatDateTime, formatMessage, type ApiKeyUse } from '@bourse/shared';
import { RecordList, useRecordPages } from '../../components/record-list';
import { translate } from '../../i18n';
import { useTranslation } from '../../i18n/react';
import { API_KEYS_KEY, fetchApiKeyUsage } from './api-keys-api';
import { reasonText } from './api-key-rules';
import { Badge, Line } from './parts';

function UseRow({ use }: { use: ApiKeyUse }) {
  const { t } = useTranslation();
  const accepted = use.status < 400;
  return (
    <article
      className="card stack"
      style={{ gap: 8 }}
      data-testid="api-key-use"
      data-status={use.status}
      data-msg={use.msg}
    >
      <div className="row" style={{ alignItems: 'center', gap: 10 }}>
        <code className="ak-call" data-testid="api-key-use-call">
          {use.method} {use.path}
        </code>
        <Badge color={accepted ? 'var(--success)' : 'var(--danger)'} testId="api-key-use-result">
          {t(accepted ? 'apiKeys_accepted' : 'apiKeys_refused')}
        </Badge>
      </div>
      <Line label={t('security_time')}>{formatDateTime(use.time)}</Line>
      <Line label={t('security_address')}>
        <bdi>{use.ip ?? '- -'}</bdi>
      </Line>
      <Line label={t('apiKeys_result')}>
        <bdi className="num">{use.status}</bdi>
        {use.msg !== 'hint_success' && <> · {reasonText(t(use.msg))}</>}
      </Line>
    </article>
  );
}

export function ApiKeyUsage({ keyId, label }: { keyId: number; label: string | undefined }) {
  const { t } = useTranslation();
  const list = useRecordPages([...API_KEYS_KEY, 'usage', keyId], (page) =>
    fetchApiKeyUsage(keyId, page),
  );
  return (
    <div className="page-body stack" data-testid="api-key-usage" style={{ gap: 12 }}>
      <h2 className="ak-title">
        {label === undefined ? t('apiKeys_usage') : formatMessage(t('apiKeys_usageTitle'), [label])}
      </h2>
      <p className="muted" style={{ margin: 0 }}>
        {translate('apiKeys_usageIntro', [API_KEY.usageKeepDays])}
      </p>
      <RecordList
        list={list}
        endTestId="api-key-usage-end"
        empty={{
          testId: 'api-key-usage-empty',
          title: t('apiKeys_usageEmpty'),
          text: translate('apiKeys_usageEmptyText', [API_KEY.usageKeepDays]),
        }}
      >
        {list.rows.map((use) => (
          <UseRow key={use.id} use={use} />
        ))}
      </RecordList>
    </div>
  );
}
