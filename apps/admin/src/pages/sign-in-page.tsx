/**
 * Sign-in with an operator account. The form checks its values with the call's schema
 * (adminLoginBody); a refusal (wrong name or password, a locked or disabled account) is the
 * server's, in the console's language. Back to where the operator was going after.
 */
import { Button, Form, Input } from 'antd';
import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { adminLoginBody, operatorsApi } from '@bourse/shared';
import { api } from '../api';
import { meKey } from '../app/operator';
import { AuthCard } from '../components/auth-card';
import { FormNotice, useCallForm } from '../components/call-form';
import { serverText } from '../i18n';
import { checkWith } from '../lib/form';
import { sessionEnd, setToken } from '../lib/session';

const FIELDS = ['username', 'password'] as const;

export default function SignInPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const queryClient = useQueryClient();
  const { busy, failure, formProps } = useCallForm(FIELDS, (values, form) => {
    const body = checkWith(form, adminLoginBody, values);
    if (!body) return;
    return async () => {
      const { token, operator } = await api.call(operatorsApi.signIn, body);
      queryClient.setQueryData(meKey(token), operator);
      setToken(token);
      const redirect = search.get('redirect');
      navigate(redirect?.startsWith('/') ? redirect : '/', { replace: true });
    };
  });
  // Why the last session ended, until this sign-in succeeds.
  const ended = sessionEnd();
  const notices = {
    signedOut: { type: 'info', message: t('auth.signedOut') },
    expired: { type: 'warning', message: serverText('hint_sessionExpired') },
    passwordChanged: { type: 'success', message: serverText('hint_pwdChanged') },
  } as const;
  const notice = ended && notices[ended];

  return (
    <AuthCard title={t('auth.signInTitle')} testId="sign-in">
      {notice && !failure && <FormNotice {...notice} testId="notice" />}
      <FormNotice message={failure} />
      <Form {...formProps}>
        <Form.Item name="username" label={t('auth.username')}>
          <Input
            prefix={<UserOutlined />}
            autoComplete="username"
            autoFocus
            data-testid="username"
            size="large"
          />
        </Form.Item>
        <Form.Item name="password" label={t('auth.password')}>
          <Input.Password
            prefix={<LockOutlined />}
            autoComplete="current-password"
            data-testid="password"
            size="large"
          />
        </Form.Item>
        <Button
          type="primary"
          htmlType="submit"
          block
          size="large"
          loading={busy}
          data-testid="sign-in-submit"
        >
          {t('auth.signIn')}
        </Button>
      </Form>
    </AuthCard>
  );
}
