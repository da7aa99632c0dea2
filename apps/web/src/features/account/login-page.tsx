/** Sign in by email or by phone with its area code (custom navigation). */
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { Input } from 'antd-mobile';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { isEmail, isPhoneForAreaCode } from '@bourse/shared';
import { showToast } from '../../api';
import { paths } from '../../config/paths';
import { useSubmit } from '../../hooks/use-submit';
import { translate } from '../../i18n';
import { navigateTo, redirectTo } from '../../lib/navigation';
import { Field } from '../../components/field';
import { Form, SubmitButton } from '../../components/form';
import { login } from './api';
import { AccountField, ChannelTabs, type Channel } from './account-field';
import { AuthHeader } from './auth-header';
import { signIn } from '../../api/session';

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
      <ChannelTabs
        channels={['email', 'phone']}
        value={channel}
        onChange={(name) => {
          setChannel(name);
          setAccount('');
          setTouched(false);
        }}
      />
      <Form onSubmit={submit}>
        <AccountField
          id="login-account"
          channel={channel}
          value={account}
          onChange={setAccount}
          areaCode={areaCode}
          onAreaCodeChange={setAreaCode}
          error={accountError}
        />
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
        <SubmitButton pending={pending} large>
          {t('account_login')}
        </SubmitButton>
      </Form>
      <div className="auth-switch muted">
        {t('account_noAccount')}{' '}
        <button type="button" className="link" onClick={() => navigateTo('register')}>
          {t('account_register')}
        </button>
      </div>
    </div>
  );
}
