/**
 * Deposit (recharge): choose the currency, then the channel (bank transfer shows the account to
 * pay into, crypto the network and deposit address, the online channel continues on linePay),
 * enter the amount (the channel's limits and the currency's decimals are checked before sending)
 * and add the payment proof, compressed as the spec says. One request id per filling of the form,
 * so a retried submit never makes a second deposit. Demo accounts are told that their funds are
 * virtual and offered the live account instead.
 */
import { Suspense, useMemo, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Button, TextArea } from 'antd-mobile';
import { AddOutline, InformationCircleOutline } from 'antd-mobile-icons';
import { useTranslation } from '../../i18n/react';
import { useSearchParams } from 'react-router';
import { isolateLtr, parseDecimal, RECHARGE_CHANNEL_TYPE, UI } from '@bourse/shared';
import { showToast } from '../../api';
import { AmountField } from '../../components/amount-field';
import { ChoiceRow } from '../../components/choice-row';
import { Field } from '../../components/field';
import { FieldGroup } from '../../components/field-group';
import { Form, SubmitButton } from '../../components/form';
import { useImagePick } from '../../hooks/use-image-pick';
import { useSubmit } from '../../hooks/use-submit';
import { translate } from '../../i18n';
import { navigateTo, redirectTo } from '../../lib/navigation';
import { DepositQr } from './deposit-qr';
import {
  useRechargeChannels,
  newRequestId,
  submitRecharge,
  type RechargeChannel,
} from './recharge-api';
import {
  CHANNEL_TYPE_LABEL,
  ChannelTitle,
  DetailRow,
  ExampleNote,
  rechargeAmountError,
} from './recharge-parts';
import { ChoiceCard, LiveFundsScreen, RecordsLink } from './wallet-parts';
import { money } from './wallet-format';

/**
 * `DepositRewards`: the deposit reward tiers of the chosen currency, shown before the user pays
 * (the rewards feature's, handed in by the app: features never import each other).
 */
export default function RechargePage({
  DepositRewards,
}: {
  DepositRewards?: React.ComponentType<{ currencyId: number }>;
}) {
  return (
    <LiveFundsScreen screen="recharge" right={<RecordsLink to="rechargeRecord" />}>
      <RechargeForm DepositRewards={DepositRewards} />
    </LiveFundsScreen>
  );
}

function ChannelDetails({ channel }: { channel: RechargeChannel }) {
  const { t } = useTranslation();
  if (channel.channelType === RECHARGE_CHANNEL_TYPE.online) {
    return (
      <section className="card" data-testid="recharge-channel-details">
        <p className="notice">
          <InformationCircleOutline />
          {t('recharge_onlineHint')}
        </p>
        {channel.isExample && <ExampleNote />}
      </section>
    );
  }
  const crypto = channel.channelType === RECHARGE_CHANNEL_TYPE.crypto;
  // What to pay into: the network, or the bank and the holder; then the address or the account
  // number, copyable on a line of its own.
  const details = crypto
    ? [{ label: t('recharge_network'), value: channel.network }]
    : [
        { label: t('bank_bankName'), value: channel.bankName },
        { label: t('bank_accountName'), value: channel.accountName },
      ];
  const target = crypto
    ? { key: 'recharge_depositAddress', value: channel.depositAddress, testId: 'deposit-address' }
    : { key: 'bank_cardNumber', value: channel.accountNumber, testId: 'account-number' };
  return (
    <section className="card" data-testid="recharge-channel-details">
      <h2 className="rc-section-title">{t(crypto ? 'recharge_sendTo' : 'recharge_payTo')}</h2>
      {channel.isExample && <ExampleNote />}
      {details.map(({ label, value }) => (
        <DetailRow key={label} label={label} value={value ?? ''} copy={!crypto} />
      ))}
      {crypto && channel.depositAddress && (
        <DepositQr
          value={channel.depositAddress}
          label={t(target.key)}
          caption={[channel.currencyName, channel.network].filter(Boolean).join(' · ')}
        />
      )}
      <DetailRow
        label={t(target.key)}
        value={target.value ?? ''}
        testId={`recharge-${target.testId}`}
        copy
        mono
      />
      {crypto && (
        <p className="rc-warning">
          {translate('recharge_addressWarning', [channel.currencyName, channel.network ?? ''])}
        </p>
      )}
      {channel.remark && <p className="rc-hint">{channel.remark}</p>}
    </section>
  );
}

function ProofPicker({
  proof,
  onChange,
  error,
}: {
  proof: string | undefined;
  onChange: (proof: string | undefined) => void;
  error: string | undefined;
}) {
  const { t } = useTranslation();
  const { busy, pick } = useImagePick(onChange);

  return (
    <FieldGroup label={t('proof_label')} labelId="recharge-proof-label" error={error}>
      <input
        id="recharge-proof"
        className="rc-file"
        type="file"
        accept="image/jpeg,image/png"
        aria-labelledby="recharge-proof-label"
        disabled={busy}
        onChange={(event) => void pick(event)}
      />
      {proof ? (
        <div className="rc-proof-preview">
          <img src={proof} alt={t('proof_alt')} data-testid="recharge-proof-preview" />
          <div className="stack" style={{ gap: 8 }}>
            <label htmlFor="recharge-proof" className="field-addon">
              {t('proof_change')}
            </label>
            <button
              type="button"
              className="field-addon"
              style={{ color: 'var(--danger)' }}
              onClick={() => onChange(undefined)}
            >
              {t('proof_remove')}
            </button>
          </div>
        </div>
      ) : (
        <label
          htmlFor="recharge-proof"
          className="card rc-proof-pick"
          data-testid="recharge-proof-pick"
        >
          <AddOutline className="rc-proof-icon" />
          <span>{t('proof_choose')}</span>
          <span style={{ fontSize: 12 }}>{t('proof_hint')}</span>
        </label>
      )}
    </FieldGroup>
  );
}

function RechargeForm({
  DepositRewards,
}: {
  DepositRewards?: React.ComponentType<{ currencyId: number }>;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [search] = useSearchParams();
  const channels = useRechargeChannels();
  const list = useMemo(() => channels.data ?? [], [channels.data]);
  const currencies = useMemo(() => {
    const seen = new Map<number, string>();
    for (const channel of list) seen.set(channel.currencyId, channel.currencyName);
    return [...seen].map(([id, name]) => ({ id, name }));
  }, [list]);

  const [chosenCurrency, setCurrency] = useState<number | undefined>(() => {
    const wanted = Number(search.get('currencyId'));
    return Number.isInteger(wanted) && wanted > 0 ? wanted : undefined;
  });
  const [chosenChannel, setChannel] = useState<number>();
  const [amount, setAmount] = useState('');
  const [proof, setProof] = useState<string>();
  const [remark, setRemark] = useState('');
  const [touched, setTouched] = useState(false);
  // One id per filling of the form: a retry of the same input reuses it, any change makes a new one.
  const requestId = useRef(newRequestId());
  const changed = () => {
    requestId.current = newRequestId();
  };

  const currencyId = currencies.some((c) => c.id === chosenCurrency)
    ? chosenCurrency
    : currencies[0]?.id;
  const offered = list.filter((channel) => channel.currencyId === currencyId);
  const channel = offered.find((c) => c.id === chosenChannel) ?? offered[0];
  const online = channel?.channelType === RECHARGE_CHANNEL_TYPE.online;

  const errors = {
    amount: channel ? rechargeAmountError(amount, channel) : undefined,
    proof: !online && !proof ? t('proof_required') : undefined,
  };

  const { submit, pending } = useSubmit(async () => {
    setTouched(true);
    if (!channel || errors.amount || errors.proof) return;
    const parsed = parseDecimal(amount.trim(), { maxScale: channel.scale });
    if (!parsed.ok) return;
    if (online) {
      navigateTo('linePay', {
        channelId: channel.id,
        amount: parsed.value,
        remark: remark.trim() || undefined,
      });
      return;
    }
    const record = await submitRecharge({
      channelId: channel.id,
      amount: parsed.value,
      proofImage: proof,
      remark: remark.trim() || undefined,
      requestId: requestId.current,
    });
    showToast(t('recharge_submitted'));
    void queryClient.invalidateQueries({ queryKey: ['rechargeRecords'] });
    redirectTo('rechargeDetail', { id: record.id });
  });

  if (channels.isPending) {
    return <p className="muted rc-empty">{t('common_loading')}</p>;
  }
  if (channels.isError) {
    return (
      <div className="rc-empty stack" style={{ alignItems: 'center' }}>
        <p className="muted">{t('recharge_loadFailed')}</p>
        <Button onClick={() => void channels.refetch()}>{t('common_retry')}</Button>
      </div>
    );
  }
  if (currencies.length === 0) {
    return <p className="muted rc-empty">{t('recharge_noChannels')}</p>;
  }

  return (
    <>
      <p className="notice">
        <InformationCircleOutline />
        {t('tip_rechargeNotice')}
      </p>

      <section>
        <h2 className="rc-section-title">{t('recharge_currency')}</h2>
        <ChoiceRow
          className="chips"
          label={t('recharge_currency')}
          options={currencies.map((currency) => currency.id)}
          text={(id) => currencies.find((currency) => currency.id === id)?.name ?? ''}
          value={currencyId}
          onChange={(id) => {
            setCurrency(id);
            setChannel(undefined);
            changed();
          }}
          testId="recharge-currencies"
        />
      </section>

      <section>
        <h2 className="rc-section-title">{t('recharge_channel')}</h2>
        <div
          className="rc-channels"
          role="group"
          aria-label={t('recharge_channel')}
          data-testid="recharge-channels"
        >
          {offered.map((item) => (
            <ChoiceCard
              key={item.id}
              className="rc-channel"
              selected={item.id === channel?.id}
              onSelect={() => {
                setChannel(item.id);
                changed();
              }}
              title={<ChannelTitle name={item.channelName} isExample={item.isExample} />}
              detail={`${t(CHANNEL_TYPE_LABEL[item.channelType] ?? 'recharge_typeBank')}${
                item.network ? ` · ${item.network}` : ''
              }`}
            />
          ))}
        </div>
      </section>

      {channel && <ChannelDetails channel={channel} />}

      {channel && DepositRewards && (
        <Suspense fallback={null}>
          <DepositRewards currencyId={channel.currencyId} />
        </Suspense>
      )}

      {channel && (
        <Form onSubmit={submit} className="stack" testId="recharge-form">
          <div>
            <AmountField
              label={t('recharge_amount')}
              id="recharge-amount"
              error={touched ? errors.amount : undefined}
              placeholder={t('recharge_amountPlaceholder')}
              value={amount}
              onChange={(value) => {
                setAmount(value);
                changed();
              }}
            >
              <span className="rc-suffix">{channel.currencyName}</span>
            </AmountField>
            <p className="rc-hint" data-testid="recharge-limits">
              {translate('recharge_limits', [
                isolateLtr(money(channel.minAmount, channel.scale)),
                isolateLtr(money(channel.maxAmount, channel.scale)),
                channel.currencyName,
              ])}
            </p>
          </div>

          {!online && (
            <ProofPicker
              proof={proof}
              error={touched ? errors.proof : undefined}
              onChange={(value) => {
                setProof(value);
                changed();
              }}
            />
          )}

          <Field label={t('recharge_remark')} htmlFor="recharge-remark">
            <TextArea
              id="recharge-remark"
              rows={2}
              autoSize={{ minRows: 1, maxRows: 4 }}
              maxLength={UI.textAreaMaxLength}
              placeholder={t('recharge_remarkPlaceholder')}
              value={remark}
              onChange={(value) => {
                setRemark(value);
                changed();
              }}
            />
          </Field>

          <SubmitButton pending={pending} large>
            {t(online ? 'recharge_continueOnline' : 'recharge_submit')}
          </SubmitButton>
        </Form>
      )}
    </>
  );
}
