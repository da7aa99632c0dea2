/**
 * Register by phone (with area code) or email (custom navigation): the spec's validation live,
 * a verification code with a 60 s resend countdown when the platform asks for one, an optional
 * or required invitation code, and the agreement.
 */
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { useTranslation } from '../../i18n/react';
import { REG_TYPE, UI, VERIFICATION_CODE, isPassword, isVerificationCode } from '@bourse/shared';
import { showToast } from '../../api';
import { useSiteInfo } from '../../hooks/use-site-info';
import { useSubmit } from '../../hooks/use-submit';
import { translate } from '../../i18n';
import { navigateTo, redirectTo } from '../../lib/navigation';
import { register, sendEmailCode, sendPhoneCode } from './api';
import {
  AccountField,
  ChannelTabs,
  PasswordField,
  TextField,
  useAccountName,
  type Channel,
} from './account-field';
import { AuthHeader, AuthScreen, useSignedIn } from './auth-header';
import { useCountdown } from './use-countdown';

const INVITE_CODE = /^[A-Za-z0-9]{4,16}$/;

export default function RegisterPage() {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const signedIn = useSignedIn();
  const site = useSiteInfo();
  const channels = (['email', 'phone'] as const).filter((name) => site?.register[name] ?? true);
  const [chosen, setChannel] = useState<Channel>('email');
  const channel: Channel | undefined = channels.includes(chosen) ? chosen : channels[0];
  const codeRequired = channel ? (site?.register.codeRequired[channel] ?? false) : false;
  const inviteRequired = site?.register.inviteCodeRequired ?? false;

  const name = useAccountName(channel);
  const [values, setValues] = useState(() => ({
    code: '',
    password: '',
    confirm: '',
    inviteCode: search.get('inviteCode') ?? '',
  }));
  const { code, password, confirm, inviteCode } = values;
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const [secondsLeft, startCountdown] = useCountdown();
  const touch = (field: string) => setTouched((state) => ({ ...state, [field]: true }));

  const errors = {
    account: name.error,
    code:
      codeRequired && !isVerificationCode(code, VERIFICATION_CODE.length)
        ? t(code ? 'hint_codeFormat' : 'hint_codeRequired')
        : undefined,
    password: isPassword(password) ? undefined : translate('hint_paramInvalid', ['userPwd']),
    confirm: confirm === password ? undefined : t('account_passwordMismatch'),
    inviteCode: inviteCode
      ? INVITE_CODE.test(inviteCode)
        ? undefined
        : t('hint_inviteCodeInvalid')
      : inviteRequired
        ? t('hint_inviteCodeRequired')
        : undefined,
  };
  const shown = (field: keyof typeof errors) => (touched[field] ? errors[field] : undefined);
  /** A field of the form (its `name` too): typing touches it, `clean` tidies what was typed. */
  const field = (key: keyof typeof values, id: string, clean = (text: string) => text) => ({
    id,
    name: key,
    value: values[key],
    onChange: (text: string) => {
      setValues((state) => ({ ...state, [key]: clean(text) }));
      touch(key);
    },
    error: shown(key),
  });

  const sending = useSubmit(async () => {
    touch('account');
    if (!name.valid || secondsLeft > 0) return;
    if (channel === 'phone') await sendPhoneCode(name.areaCode, name.account);
    else await sendEmailCode(name.account.trim());
    startCountdown(UI.verificationCodeCountdownSeconds);
    showToast(t('hint_codeSent'));
  });

  const send = useSubmit(async () => {
    setTouched({ account: true, code: true, password: true, confirm: true, inviteCode: true });
    if (!channel || Object.values(errors).some(Boolean)) return;
    const result = await register({
      regType: channel === 'phone' ? REG_TYPE.phone : REG_TYPE.email,
      ...name.body,
      userPwd: password,
      ...(inviteCode ? { inviteCode } : {}),
      ...(codeRequired || code ? { yzmCode: code } : {}),
    });
    signedIn(result, t('account_registered'));
    redirectTo('me');
  });

  if (!channel) {
    return (
      <div className="page" data-testid="register-page">
        <AuthHeader title={t('account_registerTitle')} subtitle={t('account_registerClosed')} />
      </div>
    );
  }

  return (
    <AuthScreen
      screen="register"
      tabs={
        channels.length > 1 && (
          <ChannelTabs
            channels={channels}
            value={channel}
            onChange={(next) => {
              setChannel(next);
              name.setAccount('');
              setValues((state) => ({ ...state, code: '' }));
              setTouched({});
            }}
          />
        )
      }
      send={send}
    >
      <AccountField
        id="reg-account"
        name={name}
        error={shown('account')}
        onEdit={() => touch('account')}
      />
      {codeRequired && (
        <TextField
          label={t('field_yzmCode')}
          {...field('code', 'reg-code', (text) => text.replace(/\D/g, ''))}
          inputMode="numeric"
          autoComplete="one-time-code"
          placeholder={t('account_codePlaceholder')}
          maxLength={VERIFICATION_CODE.length}
        >
          <button
            type="button"
            className="field-addon"
            data-testid="send-code"
            disabled={secondsLeft > 0 || sending.pending}
            onClick={() => void sending.submit()}
          >
            {secondsLeft > 0 ? translate('account_resendIn', [secondsLeft]) : t('account_sendCode')}
          </button>
        </TextField>
      )}
      <PasswordField
        role="new"
        rules
        label={t('field_userPwd')}
        {...field('password', 'reg-password')}
        error={undefined}
      />
      <PasswordField
        role="confirm"
        label={t('account_confirmPassword')}
        {...field('confirm', 'reg-confirm')}
      />
      <TextField
        label={t(inviteRequired ? 'field_inviteCode' : 'account_inviteCodeOptional')}
        {...field('inviteCode', 'reg-invite', (text) => text.trim())}
        placeholder={t('account_inviteCodePlaceholder')}
        maxLength={16}
      />
      <p className="muted agreement">
        {t('tip_registerAgreement')}{' '}
        <button
          type="button"
          className="link"
          data-testid="register-agreement"
          onClick={() => navigateTo('richText', { key: 'registrationAgreement' })}
        >
          {t('content_userAgreement')}
        </button>{' '}
        <button type="button" className="link" onClick={() => navigateTo('privacy')}>
          {t('page_privacy')}
        </button>
      </p>
    </AuthScreen>
  );
}
