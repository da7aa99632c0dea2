/**
 * What the server runs with (admin): version, commit, runtime and database; this instance and the
 * market feed's lease; the daily scheduler's jobs and days; the configuration in force, every secret shown only as set or not; and
 * the migrations applied. Read from the server each time the page opens.
 */
import { Card, Descriptions, Table, Tag, Typography } from 'antd';
import type { TableProps } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { consoleSystemApi, type ConfigEntry, type SystemInfo } from '@bourse/shared';
import { api } from '../api';
import { errorText } from '../i18n';
import { PageLoading } from '../components/page-loading';
import { formatTime } from '../lib/format';

const mono = { fontFamily: 'monospace', fontSize: 13, wordBreak: 'break-all' } as const;

/** A short list shown whole (no pages), compact. */
function ListTable<T extends object>(props: TableProps<T>) {
  return <Table<T> size="small" pagination={false} {...props} />;
}

/** A column of codes (ids, hosts, keys), in monospace. */
const monoColumn = (title: string, dataIndex: string, width?: number) => ({
  title,
  dataIndex,
  width,
  render: (text: string) => <span style={mono}>{text}</span>,
});

/** A column of times, in full. */
const timeColumn = (title: string, dataIndex: string, width: number) => ({
  title,
  dataIndex,
  width,
  render: (iso: string) => formatTime(iso),
});

function ConfigValue({ entry }: { entry: ConfigEntry }) {
  const { t } = useTranslation();
  if (entry.secret)
    return entry.set ? (
      <Tag color="gold" data-testid="secret">
        {t('system.secretSet')}
      </Tag>
    ) : (
      <Typography.Text type="secondary">{t('system.unset')}</Typography.Text>
    );
  if (!entry.set) return <Typography.Text type="secondary">{t('system.unset')}</Typography.Text>;
  return <span style={mono}>{entry.value}</span>;
}

function Server({ info }: { info: SystemInfo }) {
  const { t } = useTranslation();
  return (
    <Card title={t('system.server')} data-testid="server">
      <Descriptions column={3} bordered size="small">
        <Descriptions.Item label={t('system.version')}>
          <span data-testid="version">{info.version}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('system.commit')}>
          {info.commit ? (
            <Typography.Text code copyable={{ text: info.commit }}>
              {info.commit.slice(0, 12)}
            </Typography.Text>
          ) : (
            <Typography.Text type="secondary">{t('system.noCommit')}</Typography.Text>
          )}
        </Descriptions.Item>
        <Descriptions.Item label={t('system.node')}>{info.node}</Descriptions.Item>
        <Descriptions.Item label={t('system.database')}>
          {t(`system.databases.${info.database}`)}
        </Descriptions.Item>
        <Descriptions.Item label={t('system.clustered')}>
          {info.clustered ? t('system.clusteredYes') : t('system.clusteredNo')}
        </Descriptions.Item>
        <Descriptions.Item label={t('system.time')}>{formatTime(info.time)}</Descriptions.Item>
      </Descriptions>
    </Card>
  );
}

function Instances({ info }: { info: SystemInfo }) {
  const { t } = useTranslation();
  const feedOff = info.config.some((entry) => entry.key === 'MARKET_FEED' && entry.value === 'off');
  return (
    <Card title={t('system.instances')} data-testid="instances">
      <Typography.Paragraph type="secondary">{t('system.instancesExplain')}</Typography.Paragraph>
      <ListTable
        rowKey="id"
        dataSource={info.instances}
        columns={[
          monoColumn(t('system.instanceId'), 'id', 180),
          monoColumn(t('system.host'), 'host'),
          { title: t('system.pid'), dataIndex: 'pid', width: 100 },
          timeColumn(t('system.startTime'), 'startTime', 200),
          { title: t('system.wsConnections'), dataIndex: 'wsConnections', width: 140 },
          {
            title: t('system.role'),
            render: (_, row) => (
              <span>
                {row.current && <Tag color="blue">{t('system.thisInstance')}</Tag>}
                {row.feedLeader ? (
                  <Tag color="green">{t('system.feedLeader')}</Tag>
                ) : (
                  <Typography.Text type="secondary">
                    {feedOff ? t('system.feedOff') : t('system.follower')}
                  </Typography.Text>
                )}
              </span>
            ),
          },
        ]}
      />
      <Typography.Title level={5} style={{ marginTop: 20 }}>
        {t('system.lease')}
      </Typography.Title>
      <ListTable
        rowKey="name"
        dataSource={info.leases}
        locale={{ emptyText: t('system.noLease') }}
        data-testid="leases"
        columns={[
          { title: t('system.leaseName'), dataIndex: 'name', width: 160 },
          monoColumn(t('system.holder'), 'holder'),
          timeColumn(t('system.expires'), 'expiresTime', 200),
          {
            title: '',
            dataIndex: 'expired',
            width: 100,
            render: (expired: boolean) =>
              expired ? (
                <Tag>{t('system.leaseExpired')}</Tag>
              ) : (
                <Tag color="green">{t('system.leaseHeld')}</Tag>
              ),
          },
        ]}
      />
    </Card>
  );
}

type SchedulerJob = SystemInfo['scheduler']['jobs'][number];

/** The daily work: when it is due, and each job's days (the last done, the latest run). */
function Scheduler({ info }: { info: SystemInfo }) {
  const { t } = useTranslation();
  const { scheduler } = info;
  return (
    <Card title={t('system.scheduler')} data-testid="scheduler">
      <Typography.Paragraph type="secondary">
        {t('system.schedulerExplain', { time: scheduler.utcTime })}
      </Typography.Paragraph>
      <Descriptions column={2} bordered size="small" style={{ marginBottom: 16 }}>
        <Descriptions.Item label={t('system.schedulerTime')}>
          <span style={mono}>{scheduler.utcTime} UTC</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('system.schedulerNext')}>
          {formatTime(scheduler.nextRunTime)}
        </Descriptions.Item>
      </Descriptions>
      <ListTable<SchedulerJob>
        rowKey="job"
        dataSource={scheduler.jobs}
        locale={{ emptyText: t('system.schedulerNoJobs') }}
        columns={[
          monoColumn(t('system.schedulerJob'), 'job', 120),
          monoColumn(t('system.schedulerFirstDay'), 'firstDay', 130),
          monoColumn(t('system.schedulerLastDay'), 'lastFinishedDay', 150),
          {
            title: t('system.schedulerLatest'),
            render: (_, job) => {
              const latest = job.latest;
              if (!latest) return t('system.schedulerNever');
              if (latest.error)
                return (
                  <span>
                    <Tag color="red">{t('system.schedulerFailed', { day: latest.day })}</Tag>
                    <Typography.Text type="danger">{latest.error}</Typography.Text>
                  </span>
                );
              if (!latest.finishedTime)
                return (
                  <Tag color="blue">
                    {t('system.schedulerRunning', {
                      day: latest.day,
                      time: formatTime(latest.startedTime),
                    })}
                  </Tag>
                );
              return t('system.schedulerDone', {
                day: latest.day,
                count: latest.processed,
                time: formatTime(latest.finishedTime),
              });
            },
          },
        ]}
      />
    </Card>
  );
}

export default function SystemPage() {
  const { t } = useTranslation();
  const system = useQuery({
    queryKey: ['system'],
    queryFn: () => api.call(consoleSystemApi.systemInfo),
  });
  if (system.isError)
    return <Typography.Paragraph type="danger">{errorText(system.error)}</Typography.Paragraph>;
  if (!system.data) return <PageLoading />;
  const info = system.data;
  return (
    <div style={{ display: 'grid', gap: 24 }}>
      <Server info={info} />
      <Instances info={info} />
      <Scheduler info={info} />
      <div
        style={{
          display: 'grid',
          gap: 24,
          gridTemplateColumns: 'minmax(0, 1fr) minmax(0, 1fr)',
          alignItems: 'start',
        }}
      >
        <Card title={t('system.config')} data-testid="config">
          <Typography.Paragraph type="secondary">{t('system.configExplain')}</Typography.Paragraph>
          <ListTable<ConfigEntry>
            rowKey="key"
            dataSource={info.config}
            columns={[
              monoColumn(t('system.key'), 'key', 250),
              { title: t('system.value'), render: (_, entry) => <ConfigValue entry={entry} /> },
            ]}
          />
        </Card>
        <Card title={t('system.migrations')} data-testid="migrations">
          <ListTable
            rowKey="version"
            dataSource={info.migrations}
            columns={[
              { title: t('system.migrationVersion'), dataIndex: 'version', width: 70 },
              {
                title: t('system.migrationName'),
                dataIndex: 'name',
                render: (name: string) => (
                  <span style={{ ...mono, wordBreak: 'normal', whiteSpace: 'nowrap' }}>{name}</span>
                ),
              },
              timeColumn(t('system.appliedTime'), 'appliedTime', 170),
            ]}
          />
        </Card>
      </div>
    </div>
  );
}
