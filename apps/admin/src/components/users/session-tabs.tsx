/**
 * A user's sessions on their page: the live ones (device and address), every session (ended ones
 * included: each sign-in and the registration opened one), and the login history: each sign-in
 * attempt of the last 90 days with its result (wrong passwords and lock-outs too).
 */
import { Tag, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  consoleUsersApi,
  type ConsoleUserSession,
  type LoginAttempt,
  type LoginResult,
} from '@bourse/shared';
import { api } from '../../api';
import { formatTime } from '../../lib/format';
import { Muted, TimeCell } from '../cells';
import { PagedTable } from './paged-table';
import { BookTag } from './user-cells';

const time = (iso: string | null) => (iso ? <TimeCell iso={iso} /> : <Muted>–</Muted>);

export function SessionsTab({ userId, history }: { userId: number; history: boolean }) {
  const { t } = useTranslation();
  const columns: TableColumnsType<ConsoleUserSession> = [
    { title: t('users.sessions.id'), dataIndex: 'id', width: 80 },
    { title: t('users.sessions.signedIn'), dataIndex: 'createTime', render: time },
    { title: t('users.sessions.lastSeen'), dataIndex: 'lastSeenTime', render: time },
    {
      title: t('users.book.label'),
      dataIndex: 'accountType',
      render: (type: number) => <BookTag book={type} />,
    },
    {
      title: t('users.sessions.ip'),
      dataIndex: 'ip',
      render: (ip: string | null) => <span style={{ fontFamily: 'monospace' }}>{ip ?? '–'}</span>,
    },
    {
      title: t('users.sessions.device'),
      dataIndex: 'userAgent',
      render: (agent: string | null) => (
        <Typography.Text style={{ maxWidth: 380, fontSize: 12 }} ellipsis={{ tooltip: agent }}>
          {agent ?? '–'}
        </Typography.Text>
      ),
    },
    history
      ? {
          title: t('users.sessions.state'),
          render: (_, row) =>
            row.active ? (
              <Tag color="success">{t('users.sessions.active')}</Tag>
            ) : (
              <div style={{ lineHeight: 1.35 }}>
                <Tag>
                  {row.revokeTime ? t('users.sessions.ended') : t('users.sessions.expired')}
                </Tag>
                {row.revokeTime && (
                  <div>
                    <Muted small>{formatTime(row.revokeTime)}</Muted>
                  </div>
                )}
              </div>
            ),
        }
      : { title: t('users.sessions.expires'), dataIndex: 'expireTime', render: time },
  ];
  return (
    <PagedTable<ConsoleUserSession>
      key={String(history)}
      queryKey={['user', userId, 'sessions', history]}
      load={(page) => api.call(consoleUsersApi.sessions, { id: userId, active: !history, ...page })}
      rowKey="id"
      columns={columns}
      testId={history ? 'user-logins' : 'user-sessions'}
    />
  );
}

const RESULT_COLOR: Record<LoginResult, string> = {
  success: 'success',
  wrongPassword: 'error',
  locked: 'error',
  disabled: 'default',
  twoFactorFailed: 'warning',
};

export function LoginHistoryTab({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const columns: TableColumnsType<LoginAttempt> = [
    { title: t('users.loginHistory.time'), dataIndex: 'time', render: time },
    {
      title: t('users.loginHistory.result'),
      dataIndex: 'result',
      render: (result: LoginResult) => (
        <Tag color={RESULT_COLOR[result]}>{t(`users.loginHistory.results.${result}`)}</Tag>
      ),
    },
    {
      title: t('users.sessions.ip'),
      dataIndex: 'ip',
      render: (ip: string | null) => <span style={{ fontFamily: 'monospace' }}>{ip ?? '–'}</span>,
    },
    {
      title: t('users.sessions.device'),
      render: (_, row) => (
        <div style={{ lineHeight: 1.35 }}>
          <div>{[row.device.browser, row.device.os].filter(Boolean).join(' · ') || '–'}</div>
          <Typography.Text
            type="secondary"
            style={{ maxWidth: 380, fontSize: 12 }}
            ellipsis={{ tooltip: row.userAgent }}
          >
            {row.userAgent ?? '–'}
          </Typography.Text>
        </div>
      ),
    },
  ];
  return (
    <PagedTable<LoginAttempt>
      queryKey={['user', userId, 'loginHistory']}
      load={(page) => api.call(consoleUsersApi.loginHistory, { id: userId, ...page })}
      rowKey="id"
      columns={columns}
      testId="user-login-history"
    />
  );
}
