/**
 * Withdraw (withdrawl): the user picks a currency and one of its withdrawal channels, a bound bank
 * card or wallet address to pay to, and an amount within the available balance and the channel's
 * limits. The fee (amount × rate + fixed fee, rounded up to the currency's decimals) and the total
 * frozen are shown before confirming; the server's answer is the truth afterwards. The withdrawal
 * password confirms it on a code pad. Without a withdrawal password the user is sent to set one;
 * while withdrawals are held after a security change, the page says until when. Demo accounts
 * hold virtual funds and are told so instead of seeing the form.
 */
import { useEffect, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button } from 'antd-mobile';
import {
  AddOutline,
  BankcardOutline,
  ExclamationCircleOutline,
  LockOutline,
  PayCircleOutline,
} from 'antd-mobile-icons';
import { useSearchParams } from 'react-router';
import { useTranslation } from '../../i18n/react';
import {
  accountApi,
  add,
  formatDateTime,
  gt,
  isPositive,
  lt,
  normalize,
  parseDecimal,
  withdrawableAmount,
  withdrawalFee,
  paymentMethodsApi,
  securityApi,
  walletApi,
  WITHDRAW_CHANNEL_TYPE,
  type WithdrawTermsChange,
  isolateLtr,
} from '@bourse/shared';
import { api, ApiError, showToast, unhandledMessage } from '../../api';
import { storedTip } from '../../api/launch';
import { AmountField } from '../../components/amount-field';
import { ChoiceRow } from '../../components/choice-row';
import { CodePadPopup } from '../../components/code-pad';
import { TwoFactorCodeField } from '../../components/two-factor-code-field';
import { PreviewLine } from '../../components/preview-line';
import { useUser } from '../../hooks/use-user';
import { translate } from '../../i18n';
import { navigateTo, redirectTo } from '../../lib/navigation';
import { getOtherValue } from '../../lib/storage';
import { fetchBalance, percentText, useRequestId } from '../../lib/trade';
import { ChannelTitle, DetailRow, ExampleNote } from './recharge-parts';
import { ChoiceCard, LiveFundsScreen, RecordsLink } from './wallet-parts';
import { invalidateWithdrawCaches, money, STATUS_LABEL } from './withdraw-shared';
import { useMissingWithdrawLevel } from './identity-requirement';

/** An announced change of the channel's terms as one sentence: "From <date>, the minimum becomes …". */
function termsChangeText(change: WithdrawTermsChange, scale: number | undefined): string {
  const from = formatDateTime(change.effectiveTime);
  switch (change.term) {
    case 'feeRate':
      return translate('withdraw_termsFrom_feeRate', [from, percentText(change.newValue)]);
    case 'isVisible':
      return translate('withdraw_termsFrom_isVisible', [from]);
    default:
      return translate(`withdraw_termsFrom_${change.term}`, [
        from,
        money(change.newValue, scale),
        change.currencyName,
      ]);
  }
}

/**
 * The chosen channel's announced changes that make withdrawing harder (PRODUCT section 1.9), in a
 * short note under its terms; a request made before they apply keeps today's terms.
 */
function UpcomingTerms({
  changes,
  scale,
}: {
  changes: WithdrawTermsChange[];
  scale: number | undefined;
}) {
  const { t } = useTranslation();
  if (changes.length === 0) return null;
  return (
    <div
      role="note"
      aria-label={t('withdraw_termsChanges')}
      data-testid="withdraw-terms-changes"
      className="terms-changes"
    >
      {changes.map((change) => (
        <span key={change.id} className="notice">
          <ExclamationCircleOutline aria-hidden="true" />
          <span>{termsChangeText(change, scale)}</span>
        </span>
      ))}
      <span className="muted">{t('withdraw_termsKeep')}</span>
    </div>
  );
}

/**
 * Where the money goes, on the confirmation, the last step before it leaves: the bound card or
 * address whole (lists show it masked), fetched from the server for its owner when the sheet
 * opens, wrapped however long, left to right in Arabic too, with the network and a copy button.
 */
function DestinationCheck({
  kind,
  id,
  masked,
}: {
  kind: 'bank' | 'address';
  id: number;
  masked: string;
}) {
  const { t } = useTranslation();
  const whole = useQuery({
    queryKey: ['withdrawDestination', kind, id],
    queryFn: () =>
      api.call(
        walletApi.withdrawDestination,
        kind === 'bank' ? { bankId: id } : { addressId: id },
        { catchError: true },
      ),
    // Read again each time the sheet opens, kept by no cache once it closes.
    staleTime: 0,
    gcTime: 0,
    retry: 1,
  });
  const data = whole.data;
  return (
    <div className="wd-destination" data-testid="withdraw-destination-check">
      <span className="muted" style={{ fontSize: 13 }}>
        {t('withdraw_to')}
      </span>
      {data?.kind === 'address' && (
        <DetailRow
          label={t('address_network')}
          value={data.network ?? ''}
          testId="withdraw-confirm-network"
        />
      )}
      {data?.kind === 'bank' && (
        <>
          <DetailRow label={t('bank_bankName')} value={data.bankName ?? ''} />
          <DetailRow label={t('bank_accountName')} value={data.accountName ?? ''} />
        </>
      )}
      {data ? (
        <DetailRow
          label={t(data.kind === 'bank' ? 'bank_cardNumber' : 'address_address')}
          value={(data.kind === 'bank' ? data.cardNumber : data.address) ?? ''}
          testId="withdraw-confirm-destination"
          copy
          mono
        />
      ) : (
        <span className="rc-mono" style={{ overflowWrap: 'anywhere' }}>
          <bdi dir="ltr">{masked}</bdi>
        </span>
      )}
      {whole.isError ? (
        <span role="alert" style={{ color: 'var(--danger)', fontSize: 12 }}>
          {t('withdraw_destinationFailed')}
        </span>
      ) : (
        <span className="muted" style={{ fontSize: 12, lineHeight: 1.5 }}>
          {t('withdraw_checkDestination')}
        </span>
      )}
    </div>
  );
}

/** A line of the fee preview and the channel details: label, value at the end. */
function Detail(props: Omit<React.ComponentProps<typeof PreviewLine>, 'strongFontSize'>) {
  return <PreviewLine {...props} strongFontSize={15} />;
}

/** A part of the form: a card, named for assistive technology by `label`. */
function FormCard({ label, children }: { label?: string; children: React.ReactNode }) {
  return (
    <section className="card stack" style={{ gap: 10, marginBlockStart: 0 }} aria-label={label}>
      {children}
    </section>
  );
}

/** A highlighted explanation at the top of the form: held withdrawals, missing password. */
function Notice({
  icon,
  title,
  children,
  action,
  testId,
  tone = 'accent',
}: {
  icon: React.ReactNode;
  title: string;
  children?: React.ReactNode;
  action?: React.ReactNode;
  testId: string;
  tone?: 'accent' | 'danger';
}) {
  const color = tone === 'danger' ? 'var(--danger)' : 'var(--accent)';
  return (
    <section
      role="note"
      data-testid={testId}
      className="card stack"
      style={{ gap: 8, borderColor: color, marginBlockStart: 0 }}
    >
      <div className="row" style={{ color }}>
        <span style={{ fontSize: 20, display: 'flex' }}>{icon}</span>
        <strong>{title}</strong>
      </div>
      {children && (
        <span className="muted" style={{ fontSize: 13, lineHeight: 1.5 }}>
          {children}
        </span>
      )}
      {action}
    </section>
  );
}

/** Re-renders when `until` (ms) passes, so a hold ends on screen when it ends. */
function useHeld(until: number): boolean {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!(until > now)) return;
    const timer = setTimeout(() => setNow(Date.now()), Math.min(until - now + 500, 2 ** 31 - 1));
    return () => clearTimeout(timer);
  }, [until, now]);
  return until > now;
}

function WithdrawForm() {
  const { t } = useTranslation();
  const { user } = useUser();
  const queryClient = useQueryClient();
  const [search] = useSearchParams();
  const book = user?.accountType;
  const { app_withdrawAll: showAll } = getOtherValue();
  const identityLevel = useMissingWithdrawLevel();

  const channels = useQuery({
    queryKey: ['withdrawChannels', book],
    queryFn: () => api.call(walletApi.withdrawChannels, {}),
  });
  const isSet = useQuery({
    queryKey: ['isSetWithPwd'],
    queryFn: async () => Boolean((await api.call(accountApi.isSetWithPwd)).isSetWithPwd),
    refetchOnMount: 'always',
  });
  // Once the user turned two-factor on, a withdrawal asks a code of the authenticator app too.
  const twoFactor = useQuery({
    queryKey: ['twoFactorStatus'],
    queryFn: () => api.call(securityApi.twoFactorStatus),
  });
  const twoFactorOn = twoFactor.data?.enabled === 1;
  const [twoFactorCode, setTwoFactorCode] = useState('');
  const [twoFactorError, setTwoFactorError] = useState<string | undefined>();

  // Currencies in the order their channels come.
  const currencies = [
    ...new Map((channels.data ?? []).map((channel) => [channel.currencyId, channel.currencyName])),
  ];
  const asked = Number(search.get('currencyId'));
  const [chosenCurrency, setCurrencyId] = useState<number | undefined>();
  const currencyId =
    chosenCurrency ??
    (currencies.some(([id]) => id === asked) ? asked : currencies[0]?.[0]) ??
    undefined;
  const currencyChannels = (channels.data ?? []).filter(
    (channel) => channel.currencyId === currencyId,
  );
  const [chosenChannel, setChannelId] = useState<number | undefined>();
  const channel =
    currencyChannels.find((candidate) => candidate.id === chosenChannel) ?? currencyChannels[0];
  const toBank = channel?.channelType === WITHDRAW_CHANNEL_TYPE.bank;
  // Announced changes of the currency's channels (public): the chosen channel's still to come.
  const termsChanges = useQuery({
    queryKey: ['withdrawTermsChanges', currencyId],
    queryFn: () => api.call(walletApi.withdrawTermsChanges, { currencyId }),
    enabled: currencyId !== undefined,
  });
  const upcoming = (termsChanges.data ?? []).filter(
    (change) => change.status === 'pending' && change.channelId === channel?.id,
  );

  const balance = useQuery({
    queryKey: ['userBalance', currencyId, book],
    queryFn: () => fetchBalance(currencyId!),
    enabled: currencyId !== undefined,
  });
  const cards = useQuery({
    queryKey: ['bankCards'],
    queryFn: async () => (await api.call(paymentMethodsApi.bankCards)).rows,
    enabled: Boolean(channel) && toBank,
    refetchOnMount: 'always',
  });
  const addresses = useQuery({
    queryKey: ['walletAddresses', currencyId],
    queryFn: async () => (await api.call(paymentMethodsApi.walletAddresses, { currencyId })).rows,
    enabled: Boolean(channel) && !toBank,
    refetchOnMount: 'always',
  });
  const destinations: { id: number; title: string; detail: string }[] = !channel
    ? []
    : toBank
      ? (cards.data ?? []).map((card) => ({
          id: card.id,
          title: `${card.bankName} ${card.cardNumber}`,
          detail: card.accountName,
        }))
      : (addresses.data ?? [])
          .filter(
            (address) =>
              address.currencyId === channel.currencyId &&
              (!channel.network || address.network === channel.network),
          )
          .map((address) => ({
            id: address.id,
            title: address.address,
            detail: [address.network, address.remark].filter(Boolean).join(' · '),
          }));
  const destinationsLoaded = toBank ? cards.isSuccess : addresses.isSuccess;
  const [chosenDestination, setDestinationId] = useState<number | undefined>();
  const destination =
    destinations.find((candidate) => candidate.id === chosenDestination) ?? destinations[0];

  const [amount, setAmount] = useState('');
  const [touched, setTouched] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [pwdError, setPwdError] = useState<string | undefined>();
  const [sending, setSending] = useState(false);

  const holdUntil = user?.withdrawHoldUntil ? Date.parse(user.withdrawHoldUntil) : Number.NaN;
  const held = useHeld(holdUntil);

  const available = balance.data?.amount;
  const currencyName = channel?.currencyName ?? '';
  const scale = channel?.scale;
  const parsed = channel
    ? parseDecimal(amount, { maxScale: channel.scale })
    : ({ ok: false, problem: 'format' } as const);
  const fee =
    parsed.ok && channel ? withdrawalFee(parsed.value, channel, channel.scale) : undefined;
  const total = parsed.ok && fee !== undefined ? add(parsed.value, fee) : undefined;

  function amountProblem(): string | undefined {
    if (!channel) return undefined;
    if (!amount) return t('withdraw_amountRequired');
    if (!parsed.ok) {
      return parsed.problem === 'scale'
        ? translate('withdraw_amountDecimals', [channel.scale])
        : t('withdraw_amountInvalid');
    }
    const value = parsed.value;
    if (lt(value, channel.minAmount))
      return translate('withdraw_amountBelowMin', [
        isolateLtr(money(channel.minAmount, scale)),
        currencyName,
      ]);
    if (gt(value, channel.maxAmount))
      return translate('withdraw_amountAboveMax', [
        isolateLtr(money(channel.maxAmount, scale)),
        currencyName,
      ]);
    if (gt(value, channel.dailyRemaining))
      return translate('withdraw_amountAboveDaily', [
        money(channel.dailyRemaining, scale),
        currencyName,
      ]);
    if (available !== undefined && total !== undefined && gt(total, available))
      return translate('withdraw_insufficient', [money(available, scale), currencyName]);
    return undefined;
  }
  const amountError = amountProblem();
  const destinationError = destination ? undefined : t('withdraw_destinationRequired');

  // One request id per form fill: a retry of the same withdrawal reuses it, so it is made once.
  const fill = `${channel?.id}|${parsed.ok ? parsed.value : amount}|${destination?.id}`;
  const request = useRequestId('wd');

  function openConfirm() {
    setTouched(true);
    if (isSet.data === false) {
      navigateTo('change', { tab: 'withdraw' });
      return;
    }
    if (!channel || held || amountError || destinationError || isSet.data !== true) return;
    if (twoFactorOn && !twoFactorCode.trim()) {
      setTwoFactorError(t('twoFactor_codeRequired'));
      return;
    }
    setPwdError(undefined);
    setConfirming(true);
  }

  async function send(withPwd: string) {
    if (!channel || !destination || !parsed.ok || sending) return;
    setSending(true);
    setPwdError(undefined);
    try {
      const record = await api.call(
        walletApi.submitWithdrawal,
        {
          channelId: channel.id,
          amount: parsed.value,
          withPwd,
          ...(twoFactorOn ? { twoFactorCode: twoFactorCode.trim() } : {}),
          ...(toBank ? { bankId: destination.id } : { addressId: destination.id }),
          requestId: request.idFor(fill),
        },
        { catchError: true },
      );
      request.reset();
      setConfirming(false);
      setTwoFactorCode('');
      // The server's amounts are the truth: its fee is the one shown.
      showToast(
        translate('withdraw_submitted', [
          money(record.amount, scale),
          currencyName,
          money(record.fee, scale),
          t(STATUS_LABEL[record.status] ?? 'withdraw_status_reviewing'),
        ]),
      );
      void invalidateWithdrawCaches(queryClient);
      redirectTo('withdrawRecord');
    } catch (error) {
      const message = unhandledMessage(error);
      if (message) showToast(message);
      if (error instanceof ApiError && error.msg.startsWith('hint_twoFactor')) {
        // A code is good for one try: a new one from the app, under the field.
        setTwoFactorCode('');
        setTwoFactorError(translate(error.msg, error.params));
      }
      if (error instanceof ApiError && error.msg === 'hint_withPwdWrong') {
        // Another try on the pad; the rest of the form stays as it is.
        setPwdError(translate(error.msg, error.params));
        return;
      }
      setConfirming(false);
      // Limits, balance, the hold or the password may have changed: show the current ones.
      for (const key of [
        'withdrawChannels',
        'withdrawTermsChanges',
        'userBalance',
        'userInfo',
        'isSetWithPwd',
      ])
        void queryClient.invalidateQueries({ queryKey: [key] });
    } finally {
      setSending(false);
    }
  }

  /** Off to bind a card, or an address of the channel's currency and network. */
  function bindDestination() {
    if (toBank) navigateTo('bindBankCard');
    else if (channel) {
      navigateTo('bindAddress', {
        currencyId: channel.currencyId,
        network: channel.network ?? undefined,
      });
    }
  }

  /** An amount of the channel's currency, with its name. */
  const inCurrency = (value: string | undefined) =>
    value === undefined ? '- -' : `${money(value, scale)} ${currencyName}`;

  const notice = storedTip('withdrawNotice');
  const noticeText =
    notice.isShow !== 0 && notice.content ? notice.content : t('tip_withdrawNotice');

  if (channels.isSuccess && channels.data.length === 0) {
    return (
      <Notice
        icon={<ExclamationCircleOutline />}
        title={t('withdraw_noChannels')}
        testId="withdraw-no-channels"
      />
    );
  }

  return (
    <div className="stack" data-testid="withdraw-form">
      {identityLevel !== undefined && (
        <Notice
          icon={<ExclamationCircleOutline />}
          title={t('withdraw_identityTitle')}
          testId="withdraw-identity"
          action={
            <Button
              size="small"
              color="primary"
              style={{ alignSelf: 'flex-start' }}
              onClick={() => navigateTo('authentication')}
            >
              {t('withdraw_identityAction')}
            </Button>
          }
        >
          {translate('withdraw_identityText', [
            t(identityLevel > 0 ? 'identity_advanced' : 'identity_basic'),
          ])}
        </Notice>
      )}
      {held && (
        <Notice
          icon={<ExclamationCircleOutline />}
          title={t('withdraw_heldTitle')}
          testId="withdraw-held"
          tone="danger"
        >
          {translate('withdraw_heldUntil', [formatDateTime(holdUntil)])}
        </Notice>
      )}
      {isSet.data === false && (
        <Notice
          icon={<LockOutline />}
          title={t('withdraw_setPasswordTitle')}
          testId="withdraw-set-password"
          action={
            <Button
              size="small"
              color="primary"
              style={{ alignSelf: 'flex-start' }}
              onClick={() => navigateTo('change', { tab: 'withdraw' })}
            >
              {t('withdraw_setPassword')}
            </Button>
          }
        >
          {t('withdraw_setPasswordText')}
        </Notice>
      )}

      {currencies.length > 1 && (
        <ChoiceRow
          tabs
          className="market-tabs"
          label={t('field_currencyId')}
          style={{ padding: 0 }}
          options={currencies.map(([, name]) => name)}
          text={(name) => name}
          value={currencies.find(([id]) => id === currencyId)?.[1]}
          onChange={(name) => {
            setCurrencyId(currencies.find(([, candidate]) => candidate === name)?.[0]);
            setChannelId(undefined);
            setDestinationId(undefined);
            setAmount('');
            setTouched(false);
          }}
          optionTestId="withdraw-currency"
        />
      )}

      {channel && (
        <FormCard label={t('withdraw_channel')}>
          <span className="muted" style={{ fontSize: 13 }}>
            {t('withdraw_channel')}
          </span>
          {currencyChannels.map((candidate) => (
            <ChoiceCard
              key={candidate.id}
              selected={candidate.id === channel.id}
              testId={`withdraw-channel-${candidate.id}`}
              onSelect={() => {
                if (candidate.id === channel.id) return;
                setChannelId(candidate.id);
                setDestinationId(undefined);
              }}
              icon={
                candidate.channelType === WITHDRAW_CHANNEL_TYPE.bank ? (
                  <BankcardOutline />
                ) : (
                  <PayCircleOutline />
                )
              }
              title={<ChannelTitle name={candidate.channelName} isExample={candidate.isExample} />}
              detail={
                candidate.channelType === WITHDRAW_CHANNEL_TYPE.bank
                  ? t('withdraw_toBankCard')
                  : translate('withdraw_toAddress', [candidate.network ?? candidate.currencyName])
              }
            />
          ))}
          <div className="stack" style={{ gap: 6, paddingTop: 4 }} data-testid="withdraw-terms">
            <Detail label={t('withdraw_feeRate')}>
              <bdi dir="ltr">
                {percentText(channel.feeRate)}
                {isPositive(channel.fixedFee) &&
                  ` + ${money(channel.fixedFee, scale)} ${currencyName}`}
              </bdi>
            </Detail>
            <Detail label={t('withdraw_limits')}>
              <bdi dir="ltr">
                {money(channel.minAmount, scale)} – {money(channel.maxAmount, scale)} {currencyName}
              </bdi>
            </Detail>
            <Detail label={t('withdraw_dailyRemaining')} testId="withdraw-daily-remaining">
              {translate('withdraw_dailyRemainingValue', [
                isolateLtr(money(channel.dailyRemaining, scale)),
                isolateLtr(money(channel.dailyLimit, scale)),
                currencyName,
              ])}
            </Detail>
            {channel.remark && (
              <span className="muted" style={{ fontSize: 12 }}>
                {channel.remark}
              </span>
            )}
            <UpcomingTerms changes={upcoming} scale={scale} />
            {channel.isExample && <ExampleNote />}
          </div>
        </FormCard>
      )}

      {channel && (
        <FormCard label={t('withdraw_to')}>
          <div className="row">
            <span className="muted" style={{ fontSize: 13 }}>
              {t('withdraw_to')}
            </span>
            <span className="spacer" />
            {destinations.length > 0 && (
              <button
                type="button"
                className="link"
                style={{ fontSize: 13 }}
                onClick={bindDestination}
              >
                {t(toBank ? 'withdraw_bindBankCard' : 'withdraw_bindAddress')}
              </button>
            )}
          </div>
          {destinations.map((candidate) => (
            <ChoiceCard
              key={candidate.id}
              selected={candidate.id === destination?.id}
              testId={`withdraw-destination-${candidate.id}`}
              onSelect={() => setDestinationId(candidate.id)}
              icon={toBank ? <BankcardOutline /> : <PayCircleOutline />}
              title={<bdi>{candidate.title}</bdi>}
              detail={candidate.detail}
            />
          ))}
          {destinationsLoaded && destinations.length === 0 && (
            <div className="stack" style={{ gap: 8 }} data-testid="withdraw-no-destination">
              <span className="muted" style={{ fontSize: 13 }}>
                {toBank
                  ? t('withdraw_noBankCard')
                  : translate('withdraw_noAddress', [
                      channel.currencyName,
                      channel.network ?? channel.currencyName,
                    ])}
              </span>
              <Button
                size="small"
                color="primary"
                fill="outline"
                style={{ alignSelf: 'flex-start' }}
                data-testid="withdraw-bind"
                onClick={bindDestination}
              >
                <span className="row" style={{ gap: 4 }}>
                  <AddOutline />
                  {t(toBank ? 'withdraw_bindBankCard' : 'withdraw_bindAddress')}
                </span>
              </Button>
            </div>
          )}
          {touched && destinationsLoaded && destinationError && (
            <div className="field-error" role="alert">
              {destinationError}
            </div>
          )}
        </FormCard>
      )}

      {channel && (
        <FormCard>
          <AmountField
            label={t('withdraw_amount')}
            id="withdraw-amount"
            error={amount || touched ? amountError : undefined}
            placeholder={translate('withdraw_amountPlaceholder', [money(channel.minAmount, scale)])}
            value={amount}
            onChange={setAmount}
          >
            <span className="muted">{currencyName}</span>
            {showAll !== 0 && (
              <button
                type="button"
                className="field-addon"
                data-testid="withdraw-all"
                disabled={available === undefined}
                onClick={() => {
                  if (available === undefined) return;
                  setAmount(normalize(withdrawableAmount(available, channel, channel.scale)));
                  setTouched(true);
                }}
              >
                {t('withdraw_all')}
              </button>
            )}
          </AmountField>
          <Detail label={t('withdraw_available')} testId="withdraw-available">
            {inCurrency(available)}
          </Detail>
          <Detail label={t('withdraw_fee')} testId="withdraw-fee">
            {inCurrency(fee)}
          </Detail>
          <Detail label={t('withdraw_total')} strong testId="withdraw-total">
            {inCurrency(total)}
          </Detail>
          <span className="muted" style={{ fontSize: 12 }}>
            {t('withdraw_feeNote')}
          </span>
        </FormCard>
      )}

      <p className="notice">
        <ExclamationCircleOutline />
        <span>{noticeText}</span>
      </p>

      {twoFactorOn && (
        <TwoFactorCodeField
          id="withdraw-two-factor-code"
          value={twoFactorCode}
          onChange={(value) => {
            setTwoFactorCode(value);
            setTwoFactorError(undefined);
          }}
          error={twoFactorError}
        />
      )}
      <Button
        block
        color="primary"
        size="large"
        data-testid="withdraw-submit"
        disabled={!channel || held || isSet.data === undefined}
        onClick={openConfirm}
      >
        {isSet.data === false ? t('withdraw_setPassword') : t('withdraw_submit')}
      </Button>

      <CodePadPopup
        visible={confirming}
        title={t('withdraw_confirmTitle')}
        error={pwdError}
        pending={sending}
        onClose={() => setConfirming(false)}
        onComplete={send}
      >
        {channel && parsed.ok && (
          <div
            className="stack"
            style={{
              gap: 6,
              padding: 12,
              borderRadius: 10,
              background: 'var(--surface-raised)',
            }}
            data-testid="withdraw-summary"
          >
            <Detail label={t('withdraw_amount')} strong>
              {inCurrency(parsed.value)}
            </Detail>
            <Detail label={t('withdraw_fee')}>{inCurrency(fee)}</Detail>
            <Detail label={t('withdraw_total')}>{inCurrency(total)}</Detail>
            {destination && (
              <DestinationCheck
                kind={toBank ? 'bank' : 'address'}
                id={destination.id}
                masked={destination.title}
              />
            )}
          </div>
        )}
      </CodePadPopup>
    </div>
  );
}

export default function WithdrawPage() {
  return (
    <LiveFundsScreen screen="withdraw" right={<RecordsLink to="withdrawRecord" />}>
      <WithdrawForm />
    </LiveFundsScreen>
  );
}
