/**
 * Switches (admin): what the app offers (registration by phone or email, the invitation code, fast
 * trades, the demo account) and how it shows amounts. Each is turned on or off from its row; the
 * change is audited and the app reads it at its next launch call.
 */
import { useState } from 'react';
import { App, Switch, Table, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { consoleSettingsApi, SWITCH, type SwitchConfig } from '@bourse/shared';
import { api } from '../../api';
import { errorText } from '../../i18n';
import { Code, SettingsCard } from '../../components/settings/parts';

type SwitchName = keyof typeof SWITCH;

export default function SwitchesPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState<string>();
  const list = useQuery({
    queryKey: ['switches'],
    queryFn: () => api.call(consoleSettingsApi.switches),
  });

  async function toggle(row: SwitchConfig, on: boolean) {
    setBusy(row.switchName);
    try {
      await api.call(consoleSettingsApi.saveSwitch, {
        switchName: row.switchName,
        status: on ? 1 : 0,
      });
      void message.success(t('settings.common.saved'));
      await queryClient.invalidateQueries({ queryKey: ['switches'] });
    } catch (error) {
      void message.error(errorText(error));
    } finally {
      setBusy(undefined);
    }
  }

  const known = (name: string): name is SwitchName => name in SWITCH;

  const columns: TableColumnsType<SwitchConfig> = [
    {
      title: t('settings.switches.switch'),
      render: (_, row) => (
        <div style={{ lineHeight: 1.4 }}>
          <div>
            {known(row.switchName) ? t(`settings.switches.names.${row.switchName}`) : row.remark}
          </div>
          <Code>{row.switchName}</Code>
        </div>
      ),
    },
    {
      title: t('settings.switches.effect'),
      render: (_, row) => (
        <Typography.Text type="secondary">
          {known(row.switchName) ? t(`settings.switches.help.${row.switchName}`) : row.remark}
        </Typography.Text>
      ),
    },
    {
      title: t('settings.common.status'),
      width: 140,
      render: (_, row) => (
        <Switch
          checked={row.status === 1}
          loading={busy === row.switchName}
          checkedChildren={t('settings.common.on')}
          unCheckedChildren={t('settings.common.off')}
          onChange={(on) => void toggle(row, on)}
          data-testid={`switch-${row.switchName}`}
        />
      ),
    },
  ];

  return (
    <SettingsCard
      error={list.error}
      testId="switches-page"
      toolbar={<Typography.Text type="secondary">{t('settings.switches.intro')}</Typography.Text>}
    >
      <Table<SwitchConfig>
        rowKey="switchName"
        columns={columns}
        dataSource={list.data?.rows}
        loading={list.isPending}
        pagination={false}
        data-testid="switches-table"
      />
    </SettingsCard>
  );
}
