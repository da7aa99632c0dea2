/**
 * Every verification run kept, newest first, paged on the server: who started it, when, how it
 * read the ledger, what it checked and its verdict; a row opens on its violations. Read again
 * every second while one of the page's runs is running.
 */
import { Tooltip, Typography } from 'antd';
import type { TableColumnType, TableColumnsType } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { consoleSystemApi, type LedgerRun } from '@bourse/shared';
import { api } from '../../api';
import { errorText } from '../../i18n';
import { usePagedQuery } from '../../hooks/use-paged-query';
import { TimeCell } from '../cells';
import { DataTable, ListError } from '../data-table';
import { Count, RunDuration, RunStatusTag } from './run-status';
import { RUN_POLL_MS, RUNS_KEY } from './verification-card';
import { ViolationList } from './violations';

function RunViolations({ id }: { id: number }) {
  const detail = useQuery({
    queryKey: [RUNS_KEY, 'detail', id],
    queryFn: () => api.call(consoleSystemApi.ledgerRun, { id }),
  });
  if (detail.isError)
    return <Typography.Text type="danger">{errorText(detail.error)}</Typography.Text>;
  return <ViolationList violations={detail.data?.violations ?? []} />;
}

export function RunsTable() {
  const { t } = useTranslation();
  const { list, table } = usePagedQuery({
    key: [RUNS_KEY, 'list'],
    load: (page) => api.call(consoleSystemApi.ledgerRuns, page),
    pageSize: 10,
    refetchInterval: (data) =>
      data?.rows.some((run) => run.status === 'running') ? RUN_POLL_MS : false,
  });

  const count = (title: string, dataIndex: keyof LedgerRun): TableColumnType<LedgerRun> => ({
    title,
    dataIndex,
    align: 'right',
    render: (value: number | null) => <Count value={value} />,
  });
  const columns: TableColumnsType<LedgerRun> = [
    { title: t('ledger.id'), dataIndex: 'id', width: 80 },
    {
      title: t('ledger.startTime'),
      dataIndex: 'startTime',
      width: 130,
      render: (iso: string) => <TimeCell iso={iso} />,
    },
    { title: t('ledger.operator'), dataIndex: 'operatorName', width: 230 },
    {
      title: t('ledger.statusLabel'),
      dataIndex: 'status',
      width: 120,
      render: (status: LedgerRun['status']) => <RunStatusTag status={status} />,
    },
    {
      title: t('ledger.snapshotLabel'),
      dataIndex: 'snapshot',
      width: 130,
      render: (snapshot: LedgerRun['snapshot']) => (
        <Tooltip title={t(`ledger.snapshotHelp.${snapshot}`)}>
          <span>{t(`ledger.snapshot.${snapshot}`)}</span>
        </Tooltip>
      ),
    },
    count(t('ledger.accounts'), 'accounts'),
    count(t('ledger.entries'), 'entries'),
    count(t('ledger.postings'), 'postings'),
    count(t('ledger.violations'), 'violationCount'),
    {
      title: t('ledger.duration'),
      width: 100,
      align: 'right',
      render: (_, run) => <RunDuration run={run} />,
    },
  ];

  return (
    <>
      <ListError error={list.error} />
      <DataTable<LedgerRun>
        columns={columns}
        {...table}
        expandable={{
          expandedRowRender: (run) => <RunViolations id={run.id} />,
          rowExpandable: (run) => run.status === 'failed',
        }}
        testId="runs-table"
      />
    </>
  );
}
