/**
 * Pieces the deposit screens share: amounts checked against a channel, the status of a deposit,
 * copyable details and the proof image loaded with the session.
 */
import { useEffect, useState } from 'react';
import { useTranslation } from '../../i18n/react';
import { isolateLtr, parseDecimal, RECHARGE_CHANNEL_TYPE, RECHARGE_STATUS } from '@bourse/shared';
import { copyText } from '../../lib/clipboard';
import { showHelperToast } from '../../lib/toast';
import { translate } from '../../i18n';
import { fetchRechargeProof, type RechargeChannel } from './recharge-api';
import { money } from './wallet-format';
import './recharge.css';

/** What is wrong with a typed amount for this channel, or undefined when it can be sent. */
export function rechargeAmountError(input: string, channel: RechargeChannel): string | undefined {
  const amount = input.trim();
  if (!amount) return translate('recharge_amountRequired');
  const parsed = parseDecimal(amount, {
    maxScale: channel.scale,
    min: channel.minAmount,
    max: channel.maxAmount,
  });
  if (parsed.ok) return undefined;
  switch (parsed.problem) {
    case 'scale':
      return translate('recharge_amountScale', [channel.scale]);
    case 'range':
    case 'sign':
      return translate('recharge_amountRange', [
        isolateLtr(money(channel.minAmount, channel.scale)),
        isolateLtr(money(channel.maxAmount, channel.scale)),
        channel.currencyName,
      ]);
    default:
      return translate('recharge_amountFormat');
  }
}

/**
 * The mark of a seeded example channel (a fresh installation's, until an operator saves it): its
 * account or address is not the platform's. `title` is read with the badge by assistive technology.
 */
export function ExampleBadge() {
  const { t } = useTranslation();
  return (
    <span className="wl-example" data-testid="channel-example" title={t('channel_exampleHint')}>
      {t('channel_example')}
    </span>
  );
}

/** A channel's name, with the example badge when it is one. */
export function ChannelTitle({ name, isExample }: { name: string; isExample: boolean }) {
  return (
    <>
      {name}
      {isExample && <ExampleBadge />}
    </>
  );
}

/** Under an example channel's details: not to be paid into or out through. */
export function ExampleNote() {
  const { t } = useTranslation();
  return (
    <p className="wl-example-note" role="note" data-testid="channel-example-note">
      {t('channel_exampleHint')}
    </p>
  );
}

export const CHANNEL_TYPE_LABEL: Record<number, string> = {
  [RECHARGE_CHANNEL_TYPE.bank]: 'recharge_typeBank',
  [RECHARGE_CHANNEL_TYPE.crypto]: 'recharge_typeCrypto',
  [RECHARGE_CHANNEL_TYPE.online]: 'recharge_typeOnline',
};

const STATUS: Record<number, { key: string; className: string }> = {
  [RECHARGE_STATUS.reviewing]: { key: 'recharge_status0', className: 'rc-reviewing' },
  [RECHARGE_STATUS.approved]: { key: 'recharge_status1', className: 'rc-approved' },
  [RECHARGE_STATUS.rejected]: { key: 'recharge_status2', className: 'rc-rejected' },
};

function statusOf(status: number) {
  return STATUS[status] ?? STATUS[RECHARGE_STATUS.reviewing]!;
}

/** The translation key of a status. */
export function rechargeStatusKey(status: number): string {
  return statusOf(status).key;
}

export function RechargeStatusTag({ status }: { status: number }) {
  const { t } = useTranslation();
  const shown = statusOf(status);
  return (
    <span
      className={`rc-tag ${shown.className}`}
      data-testid="recharge-status"
      data-status={status}
    >
      {t(shown.key)}
    </span>
  );
}

/**
 * A label and its value on one line; `copy` adds a button that copies the value. Long codes
 * (`mono`: account numbers, addresses) get a line of their own under the label, wrapped wherever
 * needed (never cut), and read left to right in a right-to-left language too.
 */
export function DetailRow({
  label,
  value,
  copy = false,
  testId,
  mono = false,
}: {
  label: string;
  value: React.ReactNode;
  copy?: boolean;
  testId?: string;
  mono?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <div className={`rc-row${mono ? ' rc-row-block' : ''}`}>
      <span className="muted rc-row-label">{label}</span>
      <span className={`rc-row-value${mono ? ' rc-mono' : ''}`} data-testid={testId}>
        {mono ? <bdi dir="ltr">{value}</bdi> : value}
      </span>
      {copy && typeof value === 'string' && (
        <button
          type="button"
          className="field-addon rc-copy"
          aria-label={`${t('recharge_copy')} ${label}`}
          onClick={() =>
            void copyText(value).then((ok) =>
              // A helper's confirmation: 1500 ms (SEED-SPEC section 9).
              showHelperToast(t(ok ? 'recharge_copied' : 'recharge_copyFailed')),
            )
          }
        >
          {t('recharge_copy')}
        </button>
      )}
    </div>
  );
}

/**
 * The proof image of a deposit as an object URL, fetched with the session (the call answers only
 * the owner); `failed` when it cannot be shown. The URL is released when the screen closes.
 */
export function useProofUrl(id: number | undefined, hasProof: boolean) {
  const [state, setState] = useState<{ id?: number; url?: string; failed: boolean }>({
    failed: false,
  });
  useEffect(() => {
    if (!id || !hasProof) return;
    const abort = new AbortController();
    let url: string | undefined;
    fetchRechargeProof(id, abort.signal)
      .then((blob) => {
        if (abort.signal.aborted) return;
        if (!blob) return setState({ id, failed: true });
        url = URL.createObjectURL(blob);
        setState({ id, url, failed: false });
      })
      .catch(() => {
        if (!abort.signal.aborted) setState({ id, failed: true });
      });
    return () => {
      abort.abort();
      if (url) URL.revokeObjectURL(url);
    };
  }, [id, hasProof]);
  const current = state.id === id ? state : { failed: false };
  return {
    url: current.url,
    failed: current.failed,
    loading: hasProof && !current.url && !current.failed,
  };
}
