/**
 * Operators (admin): every operator account, paged on the server in id order, with its roles,
 * state and sign-ins; a new operator, a change of roles, disabling (every session ends) and
 * enabling again, a password reset (the operator chooses their own at the next sign-in), whether
 * two-factor is on and its reset for another operator who lost their phone (their sessions end;
 * they set it up again at the next sign-in) and the operator's live sessions, each of which can be
 * ended. The server refuses an admin disabling themselves and the last admin losing the role; the
 * refusal is shown as it words it.
 */
import { useState } from 'react';
import { App, Button, Drawer, Popconfirm, Space, Table, Tag, Typography } from 'antd';
import type { ButtonProps, TableColumnsType } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { consoleOperatorsApi, operatorsApi, type OperatorInfo } from '@bourse/shared';
import { api } from '../api';
import { twoFactorRequired, useOperator } from '../app/operator';
import { errorText } from '../i18n';
import { usePagedQuery } from '../hooks/use-paged-query';
import { Muted, TimeCell } from '../components/cells';
import { ListError } from '../components/data-table';
import { RoleTags } from '../components/roles';
import {
  CreateOperatorDialog,
  ResetPasswordDialog,
  RolesDialog,
} from '../components/operators/operator-dialogs';
import { OneTimePassword, type ShownPassword } from '../components/operators/one-time-password';
import { SessionsTable } from '../components/operators/sessions-table';

/** A small link-styled action of a row. */
function RowAction(props: Omit<ButtonProps, 'size' | 'type'> & { 'data-testid': string }) {
  return <Button size="small" type="link" {...props} />;
}

export default function OperatorsPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const me = useOperator();
  const queryClient = useQueryClient();
  const { list, table } = usePagedQuery({
    key: ['operators'],
    load: (page) => api.call(operatorsApi.operators, page),
  });
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<OperatorInfo>();
  const [resetting, setResetting] = useState<OperatorInfo>();
  const [sessionsOf, setSessionsOf] = useState<OperatorInfo>();
  const [shown, setShown] = useState<ShownPassword>();

  const toggle = useMutation({
    mutationFn: (operator: OperatorInfo) =>
      api.call(operatorsApi.updateOperator, { id: operator.id, disabled: !operator.disabled }),
    onSuccess: (operator) =>
      void message.success(
        t(operator.disabled ? 'operators.disabledToast' : 'operators.enabledToast', {
          username: operator.username,
        }),
      ),
    onError: (error) => void message.error(errorText(error)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['operators'] }),
  });

  const resetTwoFactor = useMutation({
    mutationFn: (operator: OperatorInfo) =>
      api.call(consoleOperatorsApi.resetOperatorTwoFactor, { id: operator.id }),
    onSuccess: ({ operator, sessionsEnded }) =>
      void message.success(
        t('twoFactor.operators.resetDone', { username: operator.username, count: sessionsEnded }),
      ),
    onError: (error) => void message.error(errorText(error)),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['operators'] }),
        queryClient.invalidateQueries({ queryKey: ['operator-sessions'] }),
      ]),
  });

  const columns: TableColumnsType<OperatorInfo> = [
    { title: t('operators.id'), dataIndex: 'id', width: 80 },
    {
      title: t('operators.username'),
      render: (_, row) => (
        <Space size={6}>
          <span style={{ fontWeight: 500 }}>{row.username}</span>
          {row.id === me.id && <Tag>{t('operators.you')}</Tag>}
        </Space>
      ),
    },
    {
      title: t('operators.roles'),
      dataIndex: 'roles',
      render: (roles: OperatorInfo['roles']) => <RoleTags roles={roles} />,
    },
    {
      title: t('operators.state'),
      width: 150,
      render: (_, row) => (
        <Space direction="vertical" size={2}>
          {row.disabled ? (
            <Tag color="red">{t('operators.disabled')}</Tag>
          ) : (
            <Tag color="green">{t('operators.enabled')}</Tag>
          )}
          {row.pwdChangeTime === null && <Muted small>{t('operators.mustChoose')}</Muted>}
        </Space>
      ),
    },
    {
      title: t('twoFactor.operators.column'),
      width: 130,
      render: (_, row) => (
        <Space direction="vertical" size={2} data-testid={`two-factor-${row.username}`}>
          {row.twoFactor ? (
            <Tag color="green">{t('twoFactor.operators.on')}</Tag>
          ) : (
            <Tag>{t('twoFactor.operators.off')}</Tag>
          )}
          {!row.twoFactor && twoFactorRequired(row.roles) && (
            <Muted small>{t('twoFactor.operators.mustSetUp')}</Muted>
          )}
        </Space>
      ),
    },
    {
      title: t('operators.lastLogin'),
      dataIndex: 'lastLoginTime',
      width: 130,
      render: (iso: string | null) =>
        iso ? <TimeCell iso={iso} /> : <Muted>{t('operators.never')}</Muted>,
    },
    {
      title: t('operators.created'),
      dataIndex: 'createTime',
      width: 130,
      render: (iso: string) => <TimeCell iso={iso} />,
    },
    {
      title: t('operators.actions'),
      width: 360,
      render: (_, row) => (
        <Space size={4} wrap>
          <RowAction onClick={() => setEditing(row)} data-testid={`roles-${row.username}`}>
            {t('operators.changeRoles')}
          </RowAction>
          <RowAction onClick={() => setResetting(row)} data-testid={`reset-${row.username}`}>
            {t('operators.resetPassword')}
          </RowAction>
          <RowAction onClick={() => setSessionsOf(row)} data-testid={`sessions-${row.username}`}>
            {t('operators.sessions.title')}
          </RowAction>
          {row.twoFactor && row.id !== me.id && (
            <Popconfirm
              title={t('twoFactor.operators.resetTitle', { username: row.username })}
              description={
                <div style={{ maxWidth: 320 }}>{t('twoFactor.operators.resetText')}</div>
              }
              okText={t('twoFactor.operators.reset')}
              cancelText={t('common.cancel')}
              okButtonProps={{ danger: true, 'data-testid': 'reset-two-factor-confirm' }}
              onConfirm={() => resetTwoFactor.mutateAsync(row).catch(() => undefined)}
            >
              <RowAction danger data-testid={`reset-two-factor-${row.username}`}>
                {t('twoFactor.operators.reset')}
              </RowAction>
            </Popconfirm>
          )}
          <Popconfirm
            title={t(row.disabled ? 'operators.enableTitle' : 'operators.disableTitle', {
              username: row.username,
            })}
            description={row.disabled ? undefined : t('operators.disableText')}
            okText={t(row.disabled ? 'operators.enable' : 'operators.disable')}
            cancelText={t('common.cancel')}
            okButtonProps={{ danger: !row.disabled, 'data-testid': 'toggle-confirm' }}
            onConfirm={() => toggle.mutateAsync(row).catch(() => undefined)}
          >
            <RowAction danger={!row.disabled} data-testid={`toggle-${row.username}`}>
              {t(row.disabled ? 'operators.enable' : 'operators.disable')}
            </RowAction>
          </Popconfirm>
        </Space>
      ),
    },
  ];

  return (
    <div style={{ background: '#fff', padding: 24, borderRadius: 8 }} data-testid="operators-page">
      <div
        style={{
          display: 'flex',
          justifyContent: 'space-between',
          alignItems: 'center',
          marginBottom: 16,
        }}
      >
        <Typography.Text type="secondary">{t('operators.intro')}</Typography.Text>
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => setCreating(true)}
          data-testid="create-operator"
        >
          {t('operators.create.title')}
        </Button>
      </div>
      <ListError error={list.error} />
      <Table<OperatorInfo> rowKey="id" columns={columns} {...table} data-testid="operators-table" />
      <CreateOperatorDialog
        open={creating}
        onClose={() => setCreating(false)}
        onShowPassword={setShown}
      />
      <RolesDialog operator={editing} onClose={() => setEditing(undefined)} />
      <ResetPasswordDialog
        operator={resetting}
        onClose={() => setResetting(undefined)}
        onShowPassword={setShown}
      />
      <OneTimePassword shown={shown} onClose={() => setShown(undefined)} />
      <Drawer
        open={sessionsOf !== undefined}
        title={t('operators.sessions.of', { username: sessionsOf?.username ?? '' })}
        width={820}
        onClose={() => setSessionsOf(undefined)}
        destroyOnHidden
        data-testid="sessions-drawer"
      >
        {sessionsOf && <SessionsTable operatorId={sessionsOf.id} />}
      </Drawer>
    </div>
  );
}
