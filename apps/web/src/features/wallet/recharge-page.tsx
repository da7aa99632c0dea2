/**
 * Deposit (recharge): choose the currency, then the channel (bank transfer shows the account to
 * pay into, crypto the network and deposit address, the online channel continues on linePay),
 * enter the amount (the channel's limits and the currency's decimals are checked before sending)
 * and add the payment proof, compressed as the spec says. One request id per filling of the form,
 * so a retried submit never makes a second deposit. Demo accounts are told that their funds are
 * virtual and offered the live account instead.
 */
import { DepositQr } from './deposit-qr';
import { useMemo, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Input, TextArea } from 'antd-mobile';
import { AddOutline, FileOutline, InformationCircleOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ACCOUNT_TYPE, parseDecimal, RECHARGE_CHANNEL_TYPE, UI } from '@bourse/shared';
import { showToast } from '../../api';
import { Field } from '../../components/field';
import { Form, SubmitButton } from '../../components/form';
import { PageHeader } from '../../components/page-header';
import { RequireSignIn } from '../../components/require-sign-in';
import { useSubmit } from '../../hooks/use-submit';
import { useUser } from '../../hooks/use-user';
import { translate } from '../../i18n';
import { Dialog, Toast } from '../../lib/antd-render';
import { navigateTo, redirectTo } from '../../lib/navigation';
import { compressProof, isAcceptedImage } from './compress-image';
import {
  fetchRechargeChannels,
  newRequestId,
  submitRecharge,
  type RechargeChannel,
} from './recharge-api';
import {
  CHANNEL_TYPE_LABEL,
  cleanAmountInput,
  DemoRechargeNotice,
  DetailRow,
  money,
  rechargeAmountError,
} from './recharge-parts';

export default function RechargePage() {
  const { t } = useTranslation();
  const { user } = useUser();
  const demo = user?.accountType === ACCOUNT_TYPE.demo;
  return (
    <RequireSignIn>
      <div className="page" data-testid="recharge-page">
        <PageHeader
          title={t('area_recharge')}
          right={
            !demo && (
              <button
                type="button"
                className="field-addon"
                onClick={() => navigateTo('rechargeRecord')}
                data-testid="recharge-records-link"
                aria-label={t('recharge_records')}
              >
                <FileOutline fontSize={20} />
              </button>
            )
          }
        />
        <div className="page-body stack">{demo ? <DemoRechargeNotice /> : <RechargeForm />}</div>
      </div>
    </RequireSignIn>
  );
}

function ChannelDetails({ channel }: { channel: RechargeChannel }) {
  const { t } = useTranslation();
  if (channel.channelType === RECHARGE_CHANNEL_TYPE.online) {
    return (
      <section className="card" data-testid="recharge-channel-details">
        <p className="notice" style={{ margin: 0 }}>
          <InformationCircleOutline style={{ flex: 'none', marginTop: 2 }} />
          {t('recharge_onlineHint')}
        </p>
      </section>
    );
  }
  const crypto = channel.channelType === RECHARGE_CHANNEL_TYPE.crypto;
  return (
    <section className="card" data-testid="recharge-channel-details">
      <h2 className="rc-section-title">{t(crypto ? 'recharge_sendTo' : 'recharge_payTo')}</h2>
      {crypto ? (
        <>
          <DetailRow label={t('recharge_network')} value={channel.network ?? ''} />
          {channel.depositAddress && (
            <DepositQr value={channel.depositAddress} label={t('recharge_depositAddress')} />
          )}
          <DetailRow
            label={t('recharge_depositAddress')}
            value={channel.depositAddress ?? ''}
            copy
            mono
            testId="recharge-deposit-address"
          />
          <p className="rc-warning">
            {translate('recharge_addressWarning', [channel.currencyName, channel.network ?? ''])}
          </p>
        </>
      ) : (
        <>
          <DetailRow label={t('bank_bankName')} value={channel.bankName ?? ''} copy />
          <DetailRow label={t('bank_accountName')} value={channel.accountName ?? ''} copy />
          <DetailRow
            label={t('bank_cardNumber')}
            value={channel.accountNumber ?? ''}
            copy
            mono
            testId="recharge-account-number"
          />
        </>
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
  const [busy, setBusy] = useState(false);

  async function pick(event: React.ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    // The same file can be picked again after a failure.
    event.target.value = '';
    if (!file) return;
    if (!isAcceptedImage(file)) {
      showToast(t('proof_typeInvalid'));
      return;
    }
    setBusy(true);
    Toast.show({ icon: 'loading', content: t('proof_compressing'), duration: 0 });
    try {
      const compressed = await compressProof(file);
      Toast.clear();
      onChange(compressed);
    } catch {
      // SEED-SPEC section 8: loading hidden, then the modal without a cancel button.
      Toast.clear();
      await Dialog.alert({
        title: t('img_compressFailed'),
        content: t('img_compressFailed'),
        confirmText: t('common_gotIt'),
      });
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className={`field${error ? ' field-invalid' : ''}`}>
      <span className="field-label" id="recharge-proof-label">
        {t('proof_label')}
      </span>
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
        <label htmlFor="recharge-proof" className="rc-proof-pick" data-testid="recharge-proof-pick">
          <AddOutline className="rc-proof-icon" />
          <span>{t('proof_choose')}</span>
          <span style={{ fontSize: 12 }}>{t('proof_hint')}</span>
        </label>
      )}
      {error && (
        <div className="field-error" role="alert">
          {error}
        </div>
      )}
    </div>
  );
}

function RechargeForm() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [search] = useSearchParams();
  const channels = useQuery({ queryKey: ['rechargeChannels'], queryFn: fetchRechargeChannels });
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
      <p className="notice" style={{ margin: 0 }}>
        <InformationCircleOutline style={{ flex: 'none', marginTop: 2 }} />
        {t('tip_rechargeNotice')}
      </p>

      <section>
        <h2 className="rc-section-title" id="recharge-currency-title">
          {t('recharge_currency')}
        </h2>
        <div
          className="chips"
          role="group"
          aria-labelledby="recharge-currency-title"
          data-testid="recharge-currencies"
        >
          {currencies.map((currency) => (
            <button
              key={currency.id}
              type="button"
              className="chip"
              aria-pressed={currency.id === currencyId}
              onClick={() => {
                setCurrency(currency.id);
                setChannel(undefined);
                changed();
              }}
            >
              {currency.name}
            </button>
          ))}
        </div>
      </section>

      <section>
        <h2 className="rc-section-title" id="recharge-channel-title">
          {t('recharge_channel')}
        </h2>
        <div
          className="rc-channels"
          role="group"
          aria-labelledby="recharge-channel-title"
          data-testid="recharge-channels"
        >
          {offered.map((item) => (
            <button
              key={item.id}
              type="button"
              className="rc-channel"
              aria-pressed={item.id === channel?.id}
              data-channel-type={item.channelType}
              onClick={() => {
                setChannel(item.id);
                changed();
              }}
            >
              <span className="rc-channel-mark" aria-hidden="true" />
              <span className="rc-channel-text">
                <strong>{item.channelName}</strong>
                <span className="muted">
                  {t(CHANNEL_TYPE_LABEL[item.channelType] ?? 'recharge_typeBank')}
                  {item.network ? ` · ${item.network}` : ''}
                </span>
              </span>
            </button>
          ))}
        </div>
      </section>

      {channel && <ChannelDetails channel={channel} />}

      {channel && (
        <Form onSubmit={submit} className="stack" testId="recharge-form">
          <div>
            <Field
              label={t('recharge_amount')}
              htmlFor="recharge-amount"
              error={touched ? errors.amount : undefined}
            >
              <Input
                id="recharge-amount"
                inputMode="decimal"
                autoComplete="off"
                maxLength={40}
                placeholder={t('recharge_amountPlaceholder')}
                value={amount}
                onChange={(value) => {
                  setAmount(cleanAmountInput(value));
                  changed();
                }}
              />
              <span className="rc-suffix">{channel.currencyName}</span>
            </Field>
            <p className="rc-hint" data-testid="recharge-limits">
              {translate('recharge_limits', [
                money(channel.minAmount, channel.scale),
                money(channel.maxAmount, channel.scale),
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
