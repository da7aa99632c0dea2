/**
 * The operator's own account: who they are, their roles, a password change (with a code once
 * two-factor is on), their two-factor authentication, and their live sessions (each other one can
 * be ended).
 */
import { Card, Descriptions } from 'antd';
import { useTranslation } from 'react-i18next';
import { useOperator } from '../app/operator';
import { ChangePasswordForm } from '../components/change-password-form';
import { SessionsTable } from '../components/operators/sessions-table';
import { TwoFactorCard } from '../components/operators/two-factor-card';
import { RoleTags } from '../components/roles';
import { formatTime } from '../lib/format';

export default function AccountPage() {
  const { t } = useTranslation();
  const operator = useOperator();
  return (
    <div style={{ display: 'grid', gap: 24, gridTemplateColumns: 'minmax(0, 1fr) minmax(0, 1fr)' }}>
      <div style={{ display: 'grid', gap: 24, alignContent: 'start' }}>
        <Card title={t('account.profile')} data-testid="account-profile">
          <Descriptions column={1} bordered size="middle">
            <Descriptions.Item label={t('account.username')}>{operator.username}</Descriptions.Item>
            <Descriptions.Item label={t('account.id')}>{operator.id}</Descriptions.Item>
            <Descriptions.Item label={t('account.roles')}>
              <RoleTags roles={operator.roles} />
            </Descriptions.Item>
            <Descriptions.Item label={t('account.lastLogin')}>
              {formatTime(operator.lastLoginTime)}
            </Descriptions.Item>
            <Descriptions.Item label={t('account.passwordChanged')}>
              {formatTime(operator.pwdChangeTime)}
            </Descriptions.Item>
            <Descriptions.Item label={t('account.created')}>
              {formatTime(operator.createTime)}
            </Descriptions.Item>
          </Descriptions>
        </Card>
        <TwoFactorCard />
      </div>
      <Card title={t('account.changePassword')} style={{ alignSelf: 'start' }}>
        <ChangePasswordForm submitLabel={t('account.changePassword')} />
      </Card>
      <Card
        title={t('operators.sessions.mine')}
        extra={t('operators.sessions.mineHelp')}
        style={{ gridColumn: '1 / -1' }}
        data-testid="account-sessions"
      >
        <SessionsTable />
      </Card>
    </div>
  );
}
