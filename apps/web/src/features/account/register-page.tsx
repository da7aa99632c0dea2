/**
 * Register by phone (with area code) or email (custom navigation): the spec's validation live,
 * a verification code with a 60 s resend countdown when the platform asks for one, an optional
 * or required invitation code, and the agreement.
 */
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { Input } from 'antd-mobile';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  REG_TYPE,
  UI,
  VERIFICATION_CODE,
  isEmail,
  isPassword,
  isPhoneForAreaCode,
  isVerificationCode,
} from '@bourse/shared';
import { showToast } from '../../api';
import { Field } from '../../components/field';
import { Form, SubmitButton } from '../../components/form';
import { useSiteInfo } from '../../hooks/use-site-info';
import { useSubmit } from '../../hooks/use-submit';
import { translate } from '../../i18n';
import { navigateTo, redirectTo } from '../../lib/navigation';
import { register, sendEmailCode, sendPhoneCode } from './api';
import { AccountField, ChannelTabs, type Channel } from './account-field';
import { AuthHeader } from './auth-header';
import { PasswordRules } from './password-rules';
import { signIn } from '../../api/session';
import { useCountdown } from './use-countdown';

const INVITE_CODE = /^[A-Za-z0-9]{4,16}$/;

export default function RegisterPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [search] = useSearchParams();
  const site = useSiteInfo();
  const channels = (['email', 'phone'] as const).filter((name) => site?.register[name] ?? true);
  const [chosen, setChannel] = useState<Channel>('email');
  const channel: Channel | undefined = channels.includes(chosen) ? chosen : channels[0];
  const codeRequired = channel ? (site?.register.codeRequired[channel] ?? false) : false;
  const inviteRequired = site?.register.inviteCodeRequired ?? false;

  const [account, setAccount] = useState('');
  const [areaCode, setAreaCode] = useState('1');
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [inviteCode, setInviteCode] = useState(() => search.get('inviteCode') ?? '');
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const [secondsLeft, startCountdown] = useCountdown();
  const touch = (name: string) => setTouched((state) => ({ ...state, [name]: true }));

  const accountValid =
    channel === 'phone' ? isPhoneForAreaCode(areaCode, account) : isEmail(account);
  const errors = {
    account: !account
      ? translate('hint_paramRequired', [channel === 'phone' ? 'phone' : 'email'])
      : accountValid
        ? undefined
        : t(channel === 'phone' ? 'hint_phoneInvalid' : 'hint_emailInvalid'),
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
  const shown = (name: keyof typeof errors) => (touched[name] ? errors[name] : undefined);

  const sending = useSubmit(async () => {
    touch('account');
    if (!accountValid || secondsLeft > 0) return;
    if (channel === 'phone') await sendPhoneCode(areaCode, account);
    else await sendEmailCode(account.trim());
    startCountdown(UI.verificationCodeCountdownSeconds);
    showToast(t('hint_codeSent'));
  });

  const { submit, pending } = useSubmit(async () => {
    setTouched({ account: true, code: true, password: true, confirm: true, inviteCode: true });
    if (!channel || Object.values(errors).some(Boolean)) return;
    const result = await register({
      regType: channel === 'phone' ? REG_TYPE.phone : REG_TYPE.email,
      userAccount: account.trim(),
      ...(channel === 'phone' ? { areaCode } : {}),
      userPwd: password,
      ...(inviteCode ? { inviteCode } : {}),
      ...(codeRequired || code ? { yzmCode: code } : {}),
    });
    signIn(result);
    queryClient.setQueryData(['userInfo'], result.userInfo);
    showToast(t('account_registered'));
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
    <div className="page" data-testid="register-page">
      <AuthHeader title={t('account_registerTitle')} subtitle={t('account_registerSubtitle')} />
      {channels.length > 1 && (
        <ChannelTabs
          channels={channels}
          value={channel}
          onChange={(name) => {
            setChannel(name);
            setAccount('');
            setCode('');
            setTouched({});
          }}
        />
      )}
      <Form onSubmit={submit}>
        <AccountField
          id="reg-account"
          channel={channel}
          value={account}
          onChange={(value) => {
            setAccount(value);
            touch('account');
          }}
          areaCode={areaCode}
          onAreaCodeChange={setAreaCode}
          error={shown('account')}
        />
        {codeRequired && (
          <Field label={t('field_yzmCode')} error={shown('code')} htmlFor="reg-code">
            <Input
              id="reg-code"
              name="code"
              inputMode="numeric"
              autoComplete="one-time-code"
              placeholder={t('account_codePlaceholder')}
              value={code}
              maxLength={VERIFICATION_CODE.length}
              onChange={(value) => {
                setCode(value.replace(/\D/g, ''));
                touch('code');
              }}
            />
            <button
              type="button"
              className="field-addon"
              data-testid="send-code"
              disabled={secondsLeft > 0 || sending.pending}
              onClick={() => void sending.submit()}
            >
              {secondsLeft > 0
                ? translate('account_resendIn', [secondsLeft])
                : t('account_sendCode')}
            </button>
          </Field>
        )}
        <Field label={t('field_userPwd')} error={undefined} htmlFor="reg-password">
          <Input
            id="reg-password"
            name="password"
            type="password"
            autoComplete="new-password"
            placeholder={t('account_newPasswordPlaceholder')}
            value={password}
            maxLength={64}
            onChange={(value) => {
              setPassword(value);
              touch('password');
            }}
          />
        </Field>
        <PasswordRules value={password} />
        <Field label={t('account_confirmPassword')} error={shown('confirm')} htmlFor="reg-confirm">
          <Input
            id="reg-confirm"
            name="confirm"
            type="password"
            autoComplete="new-password"
            placeholder={t('account_confirmPasswordPlaceholder')}
            value={confirm}
            maxLength={64}
            onChange={(value) => {
              setConfirm(value);
              touch('confirm');
            }}
          />
        </Field>
        <Field
          label={t(inviteRequired ? 'field_inviteCode' : 'account_inviteCodeOptional')}
          error={shown('inviteCode')}
          htmlFor="reg-invite"
        >
          <Input
            id="reg-invite"
            name="inviteCode"
            placeholder={t('account_inviteCodePlaceholder')}
            value={inviteCode}
            maxLength={16}
            onChange={(value) => {
              setInviteCode(value.trim());
              touch('inviteCode');
            }}
          />
        </Field>
        <p className="muted agreement">
          {t('tip_registerAgreement')}{' '}
          <button type="button" className="link" onClick={() => navigateTo('privacy')}>
            {t('page_privacy')}
          </button>
        </p>
        <SubmitButton pending={pending} large>
          {t('account_register')}
        </SubmitButton>
      </Form>
      <div className="auth-switch muted">
        {t('account_haveAccount')}{' '}
        <button type="button" className="link" onClick={() => navigateTo('login')}>
          {t('account_login')}
        </button>
      </div>
    </div>
  );
}
