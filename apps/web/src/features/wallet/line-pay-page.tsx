/**
 * The online channel's confirmation (linePay?channelId=…&amount=…): the amount, the channel and
 * where the user is sent. Confirming records the deposit (inMoney without a proof, one request id
 * for this screen so a retry never makes two), opens the channel's payment page in a new tab and
 * shows the deposit. The tab is opened during the tap, so a pop-up blocker lets it through; if it
 * is blocked anyway, the deposit's screen offers the payment page again.
 */
import { useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Button } from 'antd-mobile';
import { InformationCircleOutline } from 'antd-mobile-icons';
import { useTranslation } from '../../i18n/react';
import { useSearchParams } from 'react-router';
import { parseDecimal, RECHARGE_CHANNEL_TYPE } from '@bourse/shared';
import { useSubmit } from '../../hooks/use-submit';
import { translate } from '../../i18n';
import { navigateBack, redirectTo } from '../../lib/navigation';
import { useRechargeChannels, newRequestId, submitRecharge } from './recharge-api';
import { DetailRow, rechargeAmountError } from './recharge-parts';
import { money } from './wallet-format';
import { LiveFundsScreen } from './wallet-parts';

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

export default function LinePayPage() {
  return (
    <LiveFundsScreen screen="linePay">
      <LinePayConfirm />
    </LiveFundsScreen>
  );
}

function LinePayConfirm() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [search] = useSearchParams();
  const channelId = Number(search.get('channelId'));
  const amount = search.get('amount')?.trim() ?? '';
  const remark = search.get('remark')?.trim() || undefined;
  const requestId = useRef(newRequestId());
  const channels = useRechargeChannels();
  const channel = channels.data?.find(
    (item) => item.id === channelId && item.channelType === RECHARGE_CHANNEL_TYPE.online,
  );
  const amountError = channel ? rechargeAmountError(amount, channel) : undefined;
  const payUrl = channel?.payUrl ?? '';

  const { submit, pending } = useSubmit(async () => {
    if (!channel || amountError || !payUrl) return;
    const parsed = parseDecimal(amount, { maxScale: channel.scale });
    if (!parsed.ok) return;
    // Opened now, while the tap counts as the user's; pointed at the payment page once recorded.
    const tab = window.open('', '_blank');
    if (tab) tab.opener = null;
    try {
      const record = await submitRecharge({
        channelId: channel.id,
        amount: parsed.value,
        remark,
        requestId: requestId.current,
      });
      if (tab) tab.location.href = payUrl;
      void queryClient.invalidateQueries({ queryKey: ['rechargeRecords'] });
      redirectTo('rechargeDetail', { id: record.id });
    } catch (error) {
      tab?.close();
      throw error;
    }
  });

  if (channels.isPending) return <p className="muted rc-empty">{t('common_loading')}</p>;
  if (!channel || !payUrl) {
    return (
      <div className="rc-empty stack" style={{ alignItems: 'center' }}>
        <p className="muted" style={{ margin: 0 }}>
          {t('recharge_linePayMissing')}
        </p>
        <Button onClick={() => redirectTo('recharge')}>{t('area_recharge')}</Button>
      </div>
    );
  }
  return (
    <>
      <section className="card rc-status">
        <span className="muted">{t('recharge_amount')}</span>
        <span className="rc-status-amount" data-testid="line-pay-amount">
          {amountError ? '- -' : `${money(amount, channel.scale)} ${channel.currencyName}`}
        </span>
        {amountError && (
          <p className="field-error" role="alert">
            {amountError}
          </p>
        )}
      </section>
      <section className="card">
        <DetailRow label={t('recharge_channel')} value={channel.channelName} />
        <DetailRow label={t('recharge_payPage')} value={hostOf(payUrl)} testId="line-pay-host" />
        {remark && <DetailRow label={t('recharge_remarkShort')} value={remark} />}
      </section>
      <p className="notice">
        <InformationCircleOutline />
        {translate('recharge_linePayText', [hostOf(payUrl)])}
      </p>
      {channel.remark && <p className="rc-hint">{channel.remark}</p>}
      <div className="stack" style={{ gap: 8 }}>
        <Button
          block
          size="large"
          color="primary"
          loading={pending}
          disabled={pending || Boolean(amountError)}
          onClick={() => void submit()}
          data-testid="line-pay-confirm"
        >
          {t('recharge_linePayConfirm')}
        </Button>
        <Button block fill="none" onClick={() => navigateBack(1)}>
          {t('common_cancel')}
        </Button>
      </div>
    </>
  );
}
