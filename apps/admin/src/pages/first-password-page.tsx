/**
 * The first sign-in: an operator whose password was never changed since the account was made
 * (the first admin's, generated at first start and kept in DATA_DIR/admin-login.txt, or one an
 * admin chose at creation) chooses their own before any page opens. The change retires the
 * password file and ends the session; the operator signs in again with the new password.
 */
import { Alert, Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { AuthCard } from '../components/auth-card';
import { ChangePasswordForm } from '../components/change-password-form';
import { useOperator } from '../app/operator';
import { api } from '../api';
import { operatorsApi } from '@bourse/shared';
import { endSession } from '../lib/session';

export default function FirstPasswordPage() {
  const { t } = useTranslation();
  const operator = useOperator();
  async function signOut() {
    try {
      await api.send(operatorsApi.signOut);
    } finally {
      endSession('signedOut');
    }
  }
  return (
    <AuthCard title={t('firstPassword.title')} testId="first-password">
      <Alert
        type="warning"
        showIcon
        message={t('firstPassword.why', { username: operator.username })}
        description={t('firstPassword.how')}
        style={{ marginBottom: 24 }}
      />
      <ChangePasswordForm submitLabel={t('firstPassword.submit')} />
      <div style={{ marginTop: 16 }}>
        <Button type="link" onClick={() => void signOut()} style={{ padding: 0 }}>
          {t('auth.signOut')}
        </Button>
      </div>
    </AuthCard>
  );
}
