/**
 * The two-factor set-up an operator whose role requires it (admin, finance) is sent to before any
 * page while it is off (the sign-in guard; the server refuses their other calls with
 * `hint_twoFactorSetupRequired`): the password, the authenticator app linked and confirmed by a
 * code, the recovery codes saved; then the console opens. An operator who already has it on when
 * the page opens, or whose roles do not require it (their account page sets it up), goes on to
 * the console.
 */
import { useEffect, useState } from 'react';
import { Alert, Button } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { operatorsApi } from '@bourse/shared';
import { api } from '../api';
import { meKey, twoFactorRequired, useOperator } from '../app/operator';
import { AuthCard } from '../components/auth-card';
import { TwoFactorSetup } from '../components/operators/two-factor-setup';
import { endSession, getToken } from '../lib/session';

export default function TwoFactorSetupPage() {
  const { t } = useTranslation();
  const operator = useOperator();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  // Read once: two-factor turns on while the recovery codes are still shown (a refetch of the
  // operator then says so), and the page stays until the operator saved them.
  const [notHere] = useState(operator.twoFactor || !twoFactorRequired(operator.roles));
  useEffect(() => {
    if (notHere) void navigate('/', { replace: true });
  }, [notHere, navigate]);

  function enter() {
    // The guard reads the operator with two-factor on at once (no trip back here), then afresh.
    queryClient.setQueryData(meKey(getToken()), { ...operator, twoFactor: true });
    void queryClient.invalidateQueries({ queryKey: meKey(getToken()) });
    void navigate('/', { replace: true });
  }

  async function signOut() {
    try {
      await api.send(operatorsApi.signOut);
    } finally {
      endSession('signedOut');
    }
  }

  if (notHere) return null;
  return (
    <AuthCard title={t('twoFactor.setup.pageTitle')} testId="two-factor-setup-page" width={560}>
      <Alert
        type="warning"
        showIcon
        message={t('twoFactor.setup.why')}
        description={t('twoFactor.setup.how', { username: operator.username })}
        style={{ marginBottom: 24 }}
      />
      <TwoFactorSetup doneLabel={t('twoFactor.setup.enter')} onDone={enter} />
      <div style={{ marginTop: 16 }}>
        <Button type="link" onClick={() => void signOut()} style={{ padding: 0 }}>
          {t('auth.signOut')}
        </Button>
      </div>
    </AuthCard>
  );
}
