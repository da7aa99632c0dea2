/**
 * What support (and admins) may do to an account, each confirmed first and audited by the
 * server: disable or enable sign-in (every session and socket ends), end every session, lift the
 * withdrawal-password lock. None touches a balance, a price, an order or an outcome. Shown only
 * to roles the call admits.
 */
import type { ReactNode } from 'react';
import { App, Button, Popconfirm, Space } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { consoleUsersApi, operatorsApi, type ConsoleUserDetail, type Route } from '@bourse/shared';
import { api } from '../../api';
import { mayCall } from '../../lib/access';
import { useOperator } from '../../app/operator';
import { useBusyAction } from '../../hooks/use-busy-action';

type ActionKey = 'disable' | 'enable' | 'endSessions' | 'resetWithdrawLock';

function ConfirmedAction({
  action,
  route,
  account,
  run,
  danger = false,
  disabled = false,
}: {
  action: ActionKey;
  route: Route;
  account: string;
  /** Makes the call; the text of what was done. */
  run(): Promise<string>;
  danger?: boolean;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const operator = useOperator();
  const { busy, run: act } = useBusyAction();
  if (!mayCall(operator, route)) return null;

  const confirm = () =>
    act(async () => {
      void message.success(await run());
    });

  return (
    <Popconfirm
      title={t(`users.actions.${action}.title`, { account })}
      description={t(`users.actions.${action}.text`)}
      okText={t(`users.actions.${action}.label`)}
      okButtonProps={{ danger, 'data-testid': `${action}-confirm` }}
      cancelText={t('common.cancel')}
      onConfirm={() => confirm()}
      placement="bottomRight"
      styles={{ root: { maxWidth: 420 } }}
    >
      <Button danger={danger} loading={busy} disabled={disabled} data-testid={action}>
        {t(`users.actions.${action}.label`)}
      </Button>
    </Popconfirm>
  );
}

export function UserActions({ user }: { user: ConsoleUserDetail }): ReactNode {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: ['user', user.id] });
    await queryClient.invalidateQueries({ queryKey: ['users'] });
  };
  const disabled = user.status === 1;
  const locked = user.withdrawLock.failures > 0 || user.withdrawLock.lockedUntil !== null;

  return (
    <Space wrap>
      <ConfirmedAction
        action="endSessions"
        route={consoleUsersApi.endSessions}
        account={user.userAccount}
        disabled={user.activeSessions === 0}
        run={async () => {
          const { sessionsEnded } = await api.call(consoleUsersApi.endSessions, { id: user.id });
          await refresh();
          return t('users.actions.endSessions.done', { count: sessionsEnded });
        }}
      />
      <ConfirmedAction
        action="resetWithdrawLock"
        route={consoleUsersApi.resetWithdrawLock}
        account={user.userAccount}
        disabled={!locked}
        run={async () => {
          await api.call(consoleUsersApi.resetWithdrawLock, { id: user.id });
          await refresh();
          return t('users.actions.resetWithdrawLock.done');
        }}
      />
      <ConfirmedAction
        action={disabled ? 'enable' : 'disable'}
        route={operatorsApi.setUserStatus}
        account={user.userAccount}
        danger={!disabled}
        run={async () => {
          await api.call(operatorsApi.setUserStatus, { id: user.id, disabled: !disabled });
          await refresh();
          return t(`users.actions.${disabled ? 'enable' : 'disable'}.done`);
        }}
      />
    </Space>
  );
}
