/**
 * API lines (admin), read-only: the other addresses of this API the app lets users pick on its
 * line-selection page. They come from the API_LINES environment variable, because the server also
 * allows exactly those origins in the app's content security policy at start: a line added at run
 * time would be refused by the browsers until a restart. So the page says where they are set.
 */
import { Alert, Table, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { consoleSettingsApi, type ApiLine } from '@bourse/shared';
import { api } from '../../api';
import { Code, SettingsCard } from '../../components/settings/parts';

export default function ApiLinesPage() {
  const { t } = useTranslation();
  const lines = useQuery({
    queryKey: ['apiLines'],
    queryFn: () => api.call(consoleSettingsApi.apiLines),
  });
  return (
    <SettingsCard error={lines.error} testId="api-lines-page">
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 16 }}
        message={t('settings.apiLines.readOnly')}
        description={
          <div>
            <Typography.Paragraph style={{ marginBottom: 8 }}>
              {t('settings.apiLines.where')} <Code>{lines.data?.variable ?? 'API_LINES'}</Code>
            </Typography.Paragraph>
            <Typography.Paragraph style={{ marginBottom: 8 }}>
              <Code>API_LINES=Asia|https://asia.example.com,Europe|https://eu.example.com</Code>
            </Typography.Paragraph>
            <Typography.Text type="secondary">{t('settings.apiLines.why')}</Typography.Text>
          </div>
        }
      />
      <Table<ApiLine>
        rowKey="url"
        columns={[
          { title: t('settings.apiLines.name'), dataIndex: 'name', width: 260 },
          {
            title: t('settings.apiLines.url'),
            dataIndex: 'url',
            render: (url: string) => <Code>{url}</Code>,
          },
        ]}
        dataSource={lines.data?.lines}
        loading={lines.isPending}
        pagination={false}
        locale={{ emptyText: t('settings.apiLines.none') }}
        data-testid="api-lines-table"
      />
    </SettingsCard>
  );
}
