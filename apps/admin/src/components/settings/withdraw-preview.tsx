/**
 * What a save of a withdrawal channel will do, before it is saved (consoleSettingsApi
 * .previewWithdrawChannel, from the wallet's own rules, PRODUCT 1.9): the terms that change at
 * once, those that make withdrawing harder and apply only after the notice period (with the date),
 * and announced changes the save takes back. The same list shows a channel's changes to come.
 */
import { Alert, List, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { WithdrawChannelPreview, WithdrawTerm } from '@bourse/shared';
import { formatTime } from '../../lib/format';

type Change = { term: WithdrawTerm; oldValue: string; newValue: string; effectiveTime?: string };

export function useTermText() {
  const { t } = useTranslation();
  const value = (term: WithdrawTerm, raw: string) =>
    raw === ''
      ? '–'
      : term === 'isVisible'
        ? t(raw === '1' ? 'settings.common.shown' : 'settings.common.hidden')
        : raw;
  return (change: Change) =>
    t('settings.channels.termChange', {
      term: t(`settings.channels.terms.${change.term}`),
      from: value(change.term, change.oldValue),
      to: value(change.term, change.newValue),
    });
}

function ChangeList({ changes, testId }: { changes: Change[]; testId: string }) {
  const { t } = useTranslation();
  const text = useTermText();
  return (
    <List
      size="small"
      dataSource={changes}
      data-testid={testId}
      renderItem={(change) => (
        <List.Item
          style={{ paddingInline: 0, justifyContent: 'flex-start', gap: 8, flexWrap: 'wrap' }}
        >
          <span>{text(change)}</span>
          {change.effectiveTime && (
            <Tag color="orange">
              {t('settings.channels.from', { time: formatTime(change.effectiveTime) })}
            </Tag>
          )}
        </List.Item>
      )}
    />
  );
}

export function WithdrawPreview({ preview }: { preview: WithdrawChannelPreview }) {
  const { t } = useTranslation();
  const nothing =
    preview.atOnce.length === 0 && preview.later.length === 0 && preview.withdrawn.length === 0;
  return (
    <div data-testid="withdraw-preview" style={{ marginBottom: 16 }}>
      {nothing && <Alert type="info" showIcon message={t('settings.channels.previewNothing')} />}
      {preview.atOnce.length > 0 && (
        <Alert
          type="success"
          showIcon
          style={{ marginBottom: 8 }}
          message={t('settings.channels.atOnce')}
          description={<ChangeList changes={preview.atOnce} testId="preview-at-once" />}
        />
      )}
      {preview.later.length > 0 && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 8 }}
          message={t('settings.channels.later', { hours: preview.noticeHours })}
          description={<ChangeList changes={preview.later} testId="preview-later" />}
        />
      )}
      {preview.withdrawn.length > 0 && (
        <Alert
          type="info"
          showIcon
          message={t('settings.channels.withdrawn')}
          description={<ChangeList changes={preview.withdrawn} testId="preview-withdrawn" />}
        />
      )}
      <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0 }}>
        {t('settings.channels.previewConfirm')}
      </Typography.Paragraph>
    </div>
  );
}

/** A channel's announced changes, in the table. */
export function PendingChanges({ changes }: { changes: Change[] }) {
  const { t } = useTranslation();
  if (changes.length === 0) return <Typography.Text type="secondary">–</Typography.Text>;
  return (
    <div data-testid="pending-changes">
      <Typography.Text type="warning">
        {t('settings.channels.pending', { count: changes.length })}
      </Typography.Text>
      <ChangeList changes={changes} testId="pending-list" />
    </div>
  );
}
