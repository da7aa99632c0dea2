/**
 * The head of a user's page: who they are (account, registration, last sign-in, status, invite
 * code and inviter, book, passwords and the withdrawal-password lock, live sessions) and what
 * support may do to the account.
 */
import { Button, Card, Descriptions, Space, Tag, Typography } from 'antd';
import { ArrowLeftOutlined } from '@ant-design/icons';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { ConsoleUserDetail } from '@bourse/shared';
import { formatTime } from '../../lib/format';
import { Muted } from '../cells';
import { UserActions } from './user-actions';
import { BookTag, UserStatusTag } from './user-cells';

export function UserProfile({ user }: { user: ConsoleUserDetail }) {
  const { t } = useTranslation();
  const { lockedUntil, failures } = user.withdrawLock;
  const items = [
    {
      key: 'account',
      label: t('users.account'),
      span: 2,
      children: <Typography.Text copyable>{user.userAccount}</Typography.Text>,
    },
    {
      key: 'regType',
      label: t('users.regType.label'),
      children: t(`users.regType.${user.regType === 0 ? 'phone' : 'email'}`),
    },
    { key: 'nickName', label: t('users.nickName'), children: user.nickName },
    {
      key: 'status',
      label: t('users.statusLabel'),
      children: <UserStatusTag status={user.status} />,
    },
    {
      key: 'accountType',
      label: t('users.accountType'),
      children: <BookTag book={user.accountType} />,
    },
    { key: 'registered', label: t('users.registered'), children: formatTime(user.createTime) },
    { key: 'lastLogin', label: t('users.lastLogin'), children: formatTime(user.lastLoginTime) },
    {
      key: 'sessions',
      label: t('users.activeSessions'),
      children: <span data-testid="active-sessions">{user.activeSessions}</span>,
    },
    {
      key: 'inviteCode',
      label: t('users.inviteCode'),
      children: (
        <Space size={8}>
          <Typography.Text copyable style={{ fontFamily: 'monospace' }}>
            {user.inviteCode}
          </Typography.Text>
          <Muted>{t('users.invitedCount', { count: user.invitedCount })}</Muted>
        </Space>
      ),
    },
    {
      key: 'inviter',
      label: t('users.inviter'),
      children: user.inviter ? (
        <Link to={`/users/${user.inviter.id}`}>
          {user.inviter.userAccount} <Muted>#{user.inviter.id}</Muted>
        </Link>
      ) : (
        <Muted>{t('users.noInviter')}</Muted>
      ),
    },
    {
      key: 'password',
      label: t('users.passwordChanged'),
      children: user.passwordChangeTime ? formatTime(user.passwordChangeTime) : t('users.never'),
    },
    {
      key: 'withdrawPassword',
      label: t('users.withdrawPassword'),
      children: (
        <Space size={8} wrap data-testid="withdraw-lock">
          {user.withdrawPasswordSet ? (
            <Tag color="success">{t('users.withdrawPasswordSet')}</Tag>
          ) : (
            <Tag>{t('users.withdrawPasswordNotSet')}</Tag>
          )}
          {lockedUntil ? (
            <Tag color="error">{t('users.lockedUntil', { time: formatTime(lockedUntil) })}</Tag>
          ) : (
            failures > 0 && <Tag color="warning">{t('users.wrongTries', { count: failures })}</Tag>
          )}
        </Space>
      ),
    },
  ];
  return (
    <Card
      title={
        <Space size={12}>
          <Link to="/users">
            <Button type="text" icon={<ArrowLeftOutlined />} aria-label={t('nav.users')} />
          </Link>
          <span data-testid="user-title">{user.userAccount}</span>
          <Muted>#{user.id}</Muted>
        </Space>
      }
      extra={<UserActions user={user} />}
      data-testid="user-profile"
    >
      <Descriptions size="small" column={3} items={items} labelStyle={{ width: 150 }} />
    </Card>
  );
}
