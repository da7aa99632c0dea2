/**
 * The second step of a sign-in with two-factor on: the password was right, the session opens once
 * a code of the authenticator app (or a recovery code) comes with the server's challenge. An
 * expired challenge (5 minutes) sends the user back to the password.
 */
import { useState } from 'react';
import type { SignedIn } from '@bourse/shared';
import { ApiError } from '../../api';
import { Form, SubmitButton } from '../../components/form';
import { TwoFactorCodeField } from '../../components/two-factor-code-field';
import { useSubmit } from '../../hooks/use-submit';
import { useTranslation } from '../../i18n/react';
import { loginTwoFactor } from './api';
import { AuthHeader } from './auth-header';

export function TwoFactorStep({
  challenge,
  onSignedIn,
  onCancel,
}: {
  challenge: string;
  onSignedIn: (result: SignedIn) => void;
  /** Back to the password (the challenge expired, or the user chose to). */
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const [code, setCode] = useState('');
  const [touched, setTouched] = useState(false);
  const error = touched && !code.trim() ? t('twoFactor_codeRequired') : undefined;

  const send = useSubmit(async () => {
    setTouched(true);
    if (!code.trim()) return;
    try {
      onSignedIn(await loginTwoFactor(challenge, code.trim()));
    } catch (failure) {
      if (failure instanceof ApiError && failure.msg === 'hint_twoFactorChallengeExpired')
        onCancel();
      setCode('');
      setTouched(false);
      throw failure;
    }
  });

  return (
    <div className="page" data-testid="login-two-factor">
      <AuthHeader title={t('twoFactor_loginTitle')} subtitle={t('twoFactor_loginSubtitle')} />
      <Form onSubmit={send.submit}>
        <TwoFactorCodeField
          id="login-two-factor-code"
          value={code}
          onChange={setCode}
          error={error}
          autoFocus
        />
        <SubmitButton pending={send.pending} large>
          {t('account_login')}
        </SubmitButton>
      </Form>
      <div className="auth-switch muted">
        <button type="button" className="link" onClick={onCancel}>
          {t('twoFactor_backToPassword')}
        </button>
      </div>
    </div>
  );
}
