/**
 * An operator's live sessions, newest first, paged on the server: the browser they signed in
 * with, from where, when, when last used and until when; the one of this console marked. Each
 * other session can be ended (its next call is refused at once). Without `operatorId`, the
 * operator's own (`auth/sessions`); with one, that operator's (`operators/sessions`, admins).
 */
import { App, Button, Popconfirm, Tag, Tooltip } from 'antd';
import type { TableColumnsType } from 'antd';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { consoleOperatorsApi, type OperatorSession } from '@bourse/shared';
import { api } from '../../api';
import { errorText } from '../../i18n';
import { usePagedQuery } from '../../hooks/use-paged-query';
import { Muted, TimeCell } from '../cells';
import { DataTable } from '../data-table';

/** A short name of the browser and system of a User-Agent (`Chrome on Linux`), or the text. */
export function deviceOf(userAgent: string | null): string | undefined {
  if (!userAgent) return undefined;
  const browser = [
    ['Edg/', 'Edge'],
    ['OPR/', 'Opera'],
    ['Firefox/', 'Firefox'],
    ['Chrome/', 'Chrome'],
    ['Safari/', 'Safari'],
  ].find(([mark]) => userAgent.includes(mark!))?.[1];
  const system = [
    ['Windows', 'Windows'],
    ['Android', 'Android'],
    ['iPhone', 'iOS'],
    ['iPad', 'iPadOS'],
    ['Mac OS X', 'macOS'],
    ['Linux', 'Linux'],
  ].find(([mark]) => userAgent.includes(mark!))?.[1];
  if (!browser && !system) return userAgent.slice(0, 40);
  return [browser, system].filter(Boolean).join(' · ');
}

export function SessionsTable({ operatorId }: { operatorId?: number }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const { list, table } = usePagedQuery({
    key: ['operator-sessions', operatorId ?? 'own'],
    load: (page) =>
      operatorId === undefined
        ? api.call(consoleOperatorsApi.sessions, page)
        : api.call(consoleOperatorsApi.operatorSessions, { ...page, operatorId }),
    pageSize: 10,
  });
  const revoke = useMutation({
    mutationFn: async (id: number) => {
      if (operatorId === undefined) await api.call(consoleOperatorsApi.revokeSession, { id });
      else await api.call(consoleOperatorsApi.revokeOperatorSession, { id });
    },
    onSuccess: () => void message.success(t('operators.sessions.ended')),
    onError: (error) => void message.error(errorText(error)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['operator-sessions'] }),
  });

  const columns: TableColumnsType<OperatorSession> = [
    {
      title: t('operators.sessions.device'),
      render: (_, row) => (
        <div style={{ lineHeight: 1.35 }}>
          <Tooltip title={row.userAgent}>
            <span>{deviceOf(row.userAgent) ?? '–'}</span>
          </Tooltip>
          {row.current && (
            <Tag color="green" style={{ marginInlineStart: 8 }} data-testid="session-current">
              {t('operators.sessions.current')}
            </Tag>
          )}
          <div>
            <Muted small>{row.ip ?? '–'}</Muted>
          </div>
        </div>
      ),
    },
    {
      title: t('operators.sessions.signedIn'),
      dataIndex: 'createTime',
      width: 130,
      render: (iso: string) => <TimeCell iso={iso} />,
    },
    {
      title: t('operators.sessions.lastSeen'),
      dataIndex: 'lastSeenTime',
      width: 130,
      render: (iso: string) => <TimeCell iso={iso} />,
    },
    {
      title: t('operators.sessions.expires'),
      dataIndex: 'expireTime',
      width: 130,
      render: (iso: string) => <TimeCell iso={iso} />,
    },
    {
      title: '',
      width: 110,
      align: 'right',
      render: (_, row) =>
        row.current ? null : (
          <Popconfirm
            title={t('operators.sessions.endTitle')}
            description={t('operators.sessions.endText')}
            okText={t('operators.sessions.end')}
            cancelText={t('common.cancel')}
            okButtonProps={{ danger: true, 'data-testid': 'session-end-confirm' }}
            onConfirm={() => revoke.mutateAsync(row.id).catch(() => undefined)}
          >
            <Button danger size="small" data-testid={`session-end-${row.id}`}>
              {t('operators.sessions.end')}
            </Button>
          </Popconfirm>
        ),
    },
  ];

  return (
    <DataTable<OperatorSession>
      columns={columns}
      {...table}
      locale={list.isError ? { emptyText: errorText(list.error) } : undefined}
      testId="sessions-table"
    />
  );
}
