/**
 * Which features need which verified level (support reads, admin sets): none, basic or advanced,
 * per feature. Users read the same levels before they try a feature; the server refuses a user
 * below it. Each change is audited.
 */
import { useState } from 'react';
import { App, Select, Table, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { consoleIdentityApi, type IdentityFeature } from '@bourse/shared';
import { api } from '../../api';
import { useOperator } from '../../app/operator';
import { errorText } from '../../i18n';
import { mayCall } from '../../lib/access';
import { SettingsCard } from '../../components/settings/parts';

interface Row {
  feature: IdentityFeature;
  minLevel: number;
}

export default function IdentityRequirementsPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const operator = useOperator();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState<string>();
  const list = useQuery({
    queryKey: ['identityRequirements'],
    queryFn: () => api.call(consoleIdentityApi.identityRequirements),
  });
  const mayEdit = mayCall(operator, consoleIdentityApi.saveIdentityRequirement);
  const levels = [
    { value: -1, label: t('identity.requirements.none') },
    { value: 0, label: t('identity.level.0') },
    { value: 1, label: t('identity.level.1') },
  ];

  async function save(row: Row, minLevel: number) {
    setBusy(row.feature);
    try {
      await api.call(consoleIdentityApi.saveIdentityRequirement, {
        feature: row.feature,
        minLevel,
      });
      void message.success(
        t('identity.requirements.saved', {
          feature: t(`identity.requirements.features.${row.feature}`),
          level: levels.find((level) => level.value === minLevel)?.label,
        }),
      );
      await queryClient.invalidateQueries({ queryKey: ['identityRequirements'] });
    } catch (error) {
      void message.error(errorText(error));
    } finally {
      setBusy(undefined);
    }
  }

  const columns: TableColumnsType<Row> = [
    {
      title: t('identity.requirements.feature'),
      dataIndex: 'feature',
      render: (feature: IdentityFeature) => t(`identity.requirements.features.${feature}`),
    },
    {
      title: t('identity.requirements.minLevel'),
      render: (_, row) => (
        <Select<number>
          value={row.minLevel}
          options={levels}
          disabled={!mayEdit}
          loading={busy === row.feature}
          onChange={(value) => void save(row, value)}
          style={{ width: 200 }}
          data-testid={`requirement-${row.feature}`}
        />
      ),
    },
  ];

  return (
    <SettingsCard error={list.error} testId="identity-requirements-page">
      <Typography.Paragraph type="secondary">
        {t('identity.requirements.help')}
      </Typography.Paragraph>
      <Table<Row>
        rowKey="feature"
        columns={columns}
        dataSource={list.data?.rows}
        loading={list.isPending}
        pagination={false}
        data-testid="identity-requirements-table"
      />
    </SettingsCard>
  );
}
