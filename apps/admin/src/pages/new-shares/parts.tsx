/**
 * What the new-shares page's parts share: an offering's status as a tag (judged from its times on
 * the server's clock, as the API does, so a window that opened since the list was read shows
 * open), whether its terms may still change or it may still be cancelled, its name in the
 * console's language, and a block of published text (monospace, with a copy button).
 */
import type { ReactNode } from 'react';
import { Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  OFFERING_STATUS,
  SUBSCRIPTION_STATUS,
  offeringPhase,
  type ConsoleOffering,
  type OfferingStatus,
} from '@bourse/shared';
import { currentLanguage } from '../../i18n';

export const PAGE_SIZE = 20;

const STATUS_COLOR: Record<OfferingStatus, string> = {
  [OFFERING_STATUS.upcoming]: 'default',
  [OFFERING_STATUS.subscribing]: 'processing',
  [OFFERING_STATUS.allocating]: 'gold',
  [OFFERING_STATUS.allocated]: 'green',
  [OFFERING_STATUS.listed]: 'blue',
  [OFFERING_STATUS.cancelled]: 'red',
};

const SUBSCRIPTION_COLOR: Record<number, string> = {
  [SUBSCRIPTION_STATUS.open]: 'processing',
  [SUBSCRIPTION_STATUS.allocated]: 'green',
  [SUBSCRIPTION_STATUS.refunded]: 'gold',
  [SUBSCRIPTION_STATUS.cancelled]: 'default',
};

/**
 * The server's clock now, from an answer's `serverTime` and when the answer came (`fetchedAt`,
 * this browser's clock): the server may run on a test clock or a clock that differs.
 */
export function serverNow(row: Pick<ConsoleOffering, 'serverTime'>, fetchedAt: number): number {
  const serverTime = Date.parse(row.serverTime);
  return Number.isNaN(serverTime) ? Date.now() : Date.now() + (serverTime - fetchedAt);
}

/** The offering's status now: the stored one, moved on by its window's times. */
export function phaseOf(row: ConsoleOffering, fetchedAt: number): OfferingStatus {
  return offeringPhase(row, serverNow(row, fetchedAt));
}

/** Terms change only before the window opens (the server refuses later: hint_newShareStarted). */
export const editable = (phase: OfferingStatus) => phase === OFFERING_STATUS.upcoming;

/** An offering may be cancelled until its allocation has run. */
export const cancellable = (phase: OfferingStatus) =>
  phase === OFFERING_STATUS.upcoming ||
  phase === OFFERING_STATUS.subscribing ||
  phase === OFFERING_STATUS.allocating;

/** An allocation is published once it has run (allocated, then listed). */
export const allocated = (phase: OfferingStatus) =>
  phase === OFFERING_STATUS.allocated || phase === OFFERING_STATUS.listed;

export function OfferingStatusTag({ phase, testId }: { phase: OfferingStatus; testId?: string }) {
  const { t } = useTranslation();
  return (
    <Tag color={STATUS_COLOR[phase]} data-testid={testId}>
      {t(`newShares.status.${phase}`)}
    </Tag>
  );
}

export function SubscriptionStatusTag({ status, testId }: { status: number; testId?: string }) {
  const { t } = useTranslation();
  const known = (Object.values(SUBSCRIPTION_STATUS) as number[]).includes(status);
  return (
    <Tag color={SUBSCRIPTION_COLOR[status] ?? 'default'} data-testid={testId}>
      {known ? t(`newShares.subs.status.${status as 0}`) : status}
    </Tag>
  );
}

/** A text kept by language, in the console's language (English without one). */
export function nameOf(texts: Record<string, string>): string {
  return texts[currentLanguage()] || texts.en || Object.values(texts)[0] || '';
}

/** A published text: its label with a copy button, then the text as is, monospace, scrolling. */
export function PublishedText({
  label,
  value,
  testId,
  maxHeight = 220,
  extra,
}: {
  label: string;
  value: string;
  testId: string;
  maxHeight?: number;
  extra?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <div style={{ marginBottom: 16 }}>
      <Space size={8} style={{ marginBottom: 4 }}>
        <Typography.Text strong>{label}</Typography.Text>
        <Typography.Text
          copyable={{
            text: value,
            tooltips: [t('newShares.alloc.copy'), t('newShares.alloc.copied')],
          }}
          data-testid={`${testId}-copy`}
        />
        {extra}
      </Space>
      <pre
        data-testid={testId}
        style={{
          margin: 0,
          padding: '8px 12px',
          maxHeight,
          overflow: 'auto',
          fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
          fontSize: 12,
          lineHeight: 1.5,
          background: '#fafafa',
          border: '1px solid #f0f0f0',
          borderRadius: 6,
          whiteSpace: 'pre',
        }}
      >
        {value}
      </pre>
    </div>
  );
}
