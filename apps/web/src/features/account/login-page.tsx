/**
 * Sign in by email or by phone with its area code (custom navigation); with two-factor on, the
 * code of the authenticator app (or a recovery code) in a second step.
 */
import { useState } from 'react';
import type { SignedIn } from '@bourse/shared';
import { useSearchParams } from 'react-router';
import { useTranslation } from '../../i18n/react';
import { useSubmit } from '../../hooks/use-submit';
import { translate } from '../../i18n';
import { redirectTo, returnTo } from '../../lib/navigation';
import { login } from './api';
import { TwoFactorStep } from './two-factor-step';
import {
  AccountField,
  ChannelTabs,
  PasswordField,
  useAccountName,
  type Channel,
} from './account-field';
import { AuthScreen, useSignedIn } from './auth-header';

export default function LoginPage() {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const signedIn = useSignedIn();
  const [channel, setChannel] = useState<Channel>('email');
  const name = useAccountName(channel);
  const [password, setPassword] = useState('');
  const [touched, setTouched] = useState(false);
  /** Set once the password was right and the server asks for a code. */
  const [challenge, setChallenge] = useState<string>();

  const passwordError =
    touched && !password ? translate('hint_paramRequired', ['userPwd']) : undefined;

  const send = useSubmit(async () => {
    setTouched(true);
    if (!name.valid || !password) return;
    const result = await login({ ...name.body, userPwd: password });
    if ('twoFactorRequired' in result) setChallenge(result.challenge);
    else enter(result);
  });

  function enter(result: SignedIn) {
    signedIn(result, t('account_signedIn'));
    // Back to the screen that asked for a signed-in user, in place of login; else the me tab.
    const back = search.get('redirect');
    if (back) returnTo(back);
    else redirectTo('me');
  }

  if (challenge) {
    return (
      <TwoFactorStep
        challenge={challenge}
        onSignedIn={enter}
        onCancel={() => {
          setChallenge(undefined);
          setPassword('');
          setTouched(false);
        }}
      />
    );
  }

  return (
    <AuthScreen
      screen="login"
      tabs={
        <ChannelTabs
          channels={['email', 'phone']}
          value={channel}
          onChange={(next) => {
            setChannel(next);
            name.setAccount('');
            setTouched(false);
          }}
        />
      }
      send={send}
    >
      <AccountField id="login-account" name={name} error={touched ? name.error : undefined} />
      <PasswordField
        role="current"
        label={t('field_userPwd')}
        id="login-password"
        name="password"
        value={password}
        onChange={setPassword}
        error={passwordError}
      />
    </AuthScreen>
  );
}
