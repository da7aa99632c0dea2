/** Sign in by email or by phone with its area code (custom navigation). */
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { Button, Input } from 'antd-mobile';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { isEmail, isPhoneForAreaCode } from '@bourse/shared';
import { showToast } from '../../api';
import { paths } from '../../config/paths';
import { useSubmit } from '../../hooks/use-submit';
import { translate } from '../../i18n';
import { navigateTo, redirectTo } from '../../lib/navigation';
import { Field } from '../../components/field';
import { login } from './api';
import { AreaCodePicker } from './area-code-picker';
import { AuthHeader } from './auth-header';
import { signIn } from '../../api/session';

type Channel = 'email' | 'phone';

export default function LoginPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [search] = useSearchParams();
  const [channel, setChannel] = useState<Channel>('email');
  const [account, setAccount] = useState('');
  const [areaCode, setAreaCode] = useState('1');
  const [password, setPassword] = useState('');
  const [touched, setTouched] = useState(false);

  const accountError = !touched
    ? undefined
    : !account
      ? translate('hint_paramRequired', [channel === 'email' ? 'email' : 'phone'])
      : channel === 'email'
        ? isEmail(account)
          ? undefined
          : t('hint_emailInvalid')
        : isPhoneForAreaCode(areaCode, account)
          ? undefined
          : t('hint_phoneInvalid');
  const passwordError =
    touched && !password ? translate('hint_paramRequired', ['userPwd']) : undefined;

  const { submit, pending } = useSubmit(async () => {
    setTouched(true);
    const accountOk =
      channel === 'email' ? isEmail(account) : isPhoneForAreaCode(areaCode, account);
    if (!accountOk || !password) return;
    const result = await login({
      userAccount: account.trim(),
      userPwd: password,
      ...(channel === 'phone' ? { areaCode } : {}),
    });
    signIn(result);
    queryClient.setQueryData(['userInfo'], result.userInfo);
    showToast(t('account_signedIn'));
    const back = search.get('redirect');
    if (back && back.startsWith('/pages/') && back !== paths.login) window.location.hash = back;
    else redirectTo('me');
  });

  return (
    <div className="page" data-testid="login-page">
      <AuthHeader title={t('account_loginTitle')} subtitle={t('account_loginSubtitle')} />
      <div className="segmented" role="group">
        {(['email', 'phone'] as const).map((name) => (
          <button
            key={name}
            type="button"
            aria-pressed={channel === name}
            onClick={() => {
              setChannel(name);
              setAccount('');
              setTouched(false);
            }}
          >
            {t(name === 'email' ? 'account_byEmail' : 'account_byPhone')}
          </button>
        ))}
      </div>
      <form
        className="form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <Field
          label={t(channel === 'email' ? 'field_email' : 'field_phone')}
          error={accountError}
          htmlFor="login-account"
        >
          {channel === 'phone' && <AreaCodePicker value={areaCode} onChange={setAreaCode} />}
          <Input
            id="login-account"
            name="account"
            type={channel === 'email' ? 'email' : 'tel'}
            autoComplete={channel === 'email' ? 'email' : 'tel-national'}
            placeholder={t(
              channel === 'email' ? 'account_emailPlaceholder' : 'account_phonePlaceholder',
            )}
            value={account}
            maxLength={channel === 'email' ? 254 : 20}
            onChange={setAccount}
            clearable
          />
        </Field>
        <Field label={t('field_userPwd')} error={passwordError} htmlFor="login-password">
          <Input
            id="login-password"
            name="password"
            type="password"
            autoComplete="current-password"
            placeholder={t('account_passwordPlaceholder')}
            value={password}
            maxLength={64}
            onChange={setPassword}
          />
        </Field>
        <Button
          block
          color="primary"
          size="large"
          type="submit"
          loading={pending}
          disabled={pending}
        >
          {t('account_login')}
        </Button>
      </form>
      <div className="auth-switch muted">
        {t('account_noAccount')}{' '}
        <button type="button" className="link" onClick={() => navigateTo('register')}>
          {t('account_register')}
        </button>
      </div>
    </div>
  );
}
