/**
 * Sign-in with an operator account, in one or two steps. The password step checks its values with
 * the call's schema (adminLoginBody); the server answers the session, or, when the operator has
 * two-factor on, a challenge: the second step asks a code of the authenticator app (or a recovery
 * code) and sends it with the challenge (operatorLoginTwoFactorBody). A refusal (wrong name or
 * password, a locked or disabled account, a wrong or used code, an expired challenge) is the
 * server's, in the console's language, on the field it names. Back to where the operator was going
 * after.
 */
import { useState } from 'react';
import { Button, Form, Input, Typography } from 'antd';
import { LockOutlined, SafetyOutlined, UserOutlined } from '@ant-design/icons';
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import {
  adminLoginBody,
  consoleOperatorsApi,
  operatorLoginTwoFactorBody,
  operatorsApi,
  type OperatorInfo,
} from '@bourse/shared';
import { api } from '../api';
import { meKey } from '../app/operator';
import { AuthCard } from '../components/auth-card';
import { FormNotice, useCallForm } from '../components/call-form';
import { serverText } from '../i18n';
import { checkWith } from '../lib/form';
import { sessionEnd, setToken } from '../lib/session';

const FIELDS = ['username', 'password'] as const;
const CODE_FIELDS = ['code'] as const;

/** The second step's call: the challenge the password step answered, and who it is for. */
interface Challenge {
  challenge: string;
  username: string;
}

/** Opens the console with a session: the operator is known at once, then where they were going. */
function useSignedIn() {
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const queryClient = useQueryClient();
  return ({ token, operator }: { token: string; operator: OperatorInfo }) => {
    queryClient.setQueryData(meKey(token), operator);
    setToken(token);
    const redirect = search.get('redirect');
    void navigate(redirect?.startsWith('/') ? redirect : '/', { replace: true });
  };
}

/** The second step: a code of the app or a recovery code, with the way back to the password. */
function CodeStep({ challenge, onBack }: { challenge: Challenge; onBack(): void }) {
  const { t } = useTranslation();
  const signedIn = useSignedIn();
  const { busy, failure, formProps } = useCallForm(CODE_FIELDS, (values, form) => {
    const body = checkWith(form, operatorLoginTwoFactorBody, {
      ...values,
      challenge: challenge.challenge,
    });
    if (!body) return;
    return async () => signedIn(await api.call(consoleOperatorsApi.signInTwoFactor, body));
  });
  return (
    <AuthCard title={t('twoFactor.signIn.title')} testId="sign-in-code">
      <Typography.Paragraph>
        {t('twoFactor.signIn.help', { username: challenge.username })}
      </Typography.Paragraph>
      <FormNotice message={failure} />
      <Form {...formProps}>
        <Form.Item name="code" label={t('twoFactor.code')} extra={t('twoFactor.signIn.recovery')}>
          <Input
            prefix={<SafetyOutlined />}
            autoComplete="one-time-code"
            autoFocus
            placeholder={t('twoFactor.codePlaceholder')}
            maxLength={32}
            data-testid="two-factor-code"
            size="large"
          />
        </Form.Item>
        <Button
          type="primary"
          htmlType="submit"
          block
          size="large"
          loading={busy}
          data-testid="two-factor-submit"
        >
          {t('twoFactor.signIn.submit')}
        </Button>
      </Form>
      <div style={{ marginTop: 16 }}>
        <Button type="link" onClick={onBack} style={{ padding: 0 }} data-testid="back-to-password">
          {t('twoFactor.signIn.back')}
        </Button>
      </div>
    </AuthCard>
  );
}

export default function SignInPage() {
  const { t } = useTranslation();
  const signedIn = useSignedIn();
  const [challenge, setChallenge] = useState<Challenge>();
  const { busy, failure, formProps } = useCallForm(FIELDS, (values, form) => {
    const body = checkWith(form, adminLoginBody, values);
    if (!body) return;
    return async () => {
      const answer = await api.call(operatorsApi.signIn, body);
      if ('challenge' in answer) {
        // Not kept for the way back: the password is typed again.
        form.setFieldValue('password', '');
        setChallenge({ challenge: answer.challenge, username: body.username });
        return;
      }
      signedIn(answer);
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

  if (challenge) return <CodeStep challenge={challenge} onBack={() => setChallenge(undefined)} />;
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
