/**
 * Sign-in with an operator account. The form checks its values with the call's schema
 * (adminLoginBody); a refusal (wrong name or password, a locked or disabled account) is the
 * server's, in the console's language. Back to where the operator was going after.
 */
import { useState } from 'react';
import { Alert, Button, Form, Input } from 'antd';
import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { adminLoginBody, operatorsApi } from '@bourse/shared';
import { api } from '../api';
import { meKey } from '../app/operator';
import { AuthCard } from '../components/auth-card';
import { serverText } from '../i18n';
import { checkWith, showOnField } from '../lib/form';
import { sessionEnd, setToken } from '../lib/session';

const FIELDS = ['username', 'password'] as const;

export default function SignInPage() {
  const { t } = useTranslation();
  const [form] = Form.useForm();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string>();
  // Why the last session ended, until this sign-in succeeds.
  const notice = sessionEnd();

  async function submit(values: Record<string, unknown>) {
    setFailure(undefined);
    const body = checkWith(form, adminLoginBody, values);
    if (!body) return;
    setBusy(true);
    try {
      const { token, operator } = await api.call(operatorsApi.signIn, body);
      queryClient.setQueryData(meKey(token), operator);
      setToken(token);
      const redirect = search.get('redirect');
      navigate(redirect?.startsWith('/') ? redirect : '/', { replace: true });
    } catch (error) {
      setFailure(showOnField(form, error, FIELDS));
    } finally {
      setBusy(false);
    }
  }

  return (
    <AuthCard title={t('auth.signInTitle')} testId="sign-in">
      {notice === 'signedOut' && !failure && (
        <Alert
          type="info"
          showIcon
          message={t('auth.signedOut')}
          style={{ marginBottom: 16 }}
          data-testid="notice"
        />
      )}
      {notice === 'expired' && !failure && (
        <Alert
          type="warning"
          showIcon
          message={serverText('hint_sessionExpired')}
          style={{ marginBottom: 16 }}
          data-testid="notice"
        />
      )}
      {notice === 'passwordChanged' && !failure && (
        <Alert
          type="success"
          showIcon
          message={serverText('hint_pwdChanged')}
          style={{ marginBottom: 16 }}
          data-testid="notice"
        />
      )}
      {failure && (
        <Alert
          type="error"
          showIcon
          message={failure}
          style={{ marginBottom: 16 }}
          data-testid="form-error"
        />
      )}
      <Form
        form={form}
        layout="vertical"
        requiredMark={false}
        onFinish={(values: Record<string, unknown>) => void submit(values)}
        onValuesChange={() => setFailure(undefined)}
      >
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
