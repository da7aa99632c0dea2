/**
 * The latest ledger verification and the button that starts one (admins; the server refuses the
 * others): while a run runs, its progress check by check, read again every second from the server
 * (any instance may be running it); once done, its verdict with what it checked and, when it
 * failed, the violations.
 */
import { Alert, App, Button, Card, Progress, Space, Typography } from 'antd';
import { SafetyCertificateOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { consoleSystemApi, NOTHING_TO_DO_MSG, type LedgerRunDetail } from '@bourse/shared';
import { api } from '../../api';
import { useOperator } from '../../app/operator';
import { errorText } from '../../i18n';
import { mayCall } from '../../lib/access';
import { formatTime } from '../../lib/format';
import { useBusyAction } from '../../hooks/use-busy-action';
import { ViolationList } from './violations';

/** How often a running verification is read again. */
export const RUN_POLL_MS = 1000;

/** The runs' queries (list and detail) share this first key, so one refresh reaches both. */
export const RUNS_KEY = 'ledgerRuns';

const whileRunning = (status: string | undefined) => (status === 'running' ? RUN_POLL_MS : false);

function Verdict({ run }: { run: LedgerRunDetail }) {
  const { t } = useTranslation();
  const time = formatTime(run.finishTime ?? run.startTime);
  if (run.status === 'running') {
    const check = run.check ? t(`ledger.checks.${run.check}`) : '…';
    return (
      <div data-testid="run-progress">
        <Typography.Text strong>{t('ledger.running', { id: run.id })}</Typography.Text>
        <Progress
          percent={Math.round((run.step / run.steps) * 100)}
          status="active"
          style={{ marginBlock: 8 }}
        />
        <Space direction="vertical" size={2}>
          <Typography.Text>{t('ledger.checking', { check })}</Typography.Text>
          <Typography.Text type="secondary">
            {t('ledger.startedBy', {
              operator: run.operatorName,
              time: formatTime(run.startTime),
            })}
          </Typography.Text>
        </Space>
      </div>
    );
  }
  if (run.status === 'passed') {
    return (
      <Alert
        type="success"
        showIcon
        data-testid="run-verdict"
        message={t('ledger.passedTitle')}
        description={t('ledger.passedText', {
          id: run.id,
          time,
          accounts: run.accounts?.toLocaleString(),
          entries: run.entries?.toLocaleString(),
          postings: run.postings?.toLocaleString(),
        })}
      />
    );
  }
  if (run.status === 'failed') {
    return (
      <Space direction="vertical" size={12} style={{ width: '100%' }}>
        <Alert
          type="error"
          showIcon
          data-testid="run-verdict"
          message={t('ledger.failedTitle', { count: run.violationCount ?? 0 })}
          description={t('ledger.failedText', { id: run.id, time })}
        />
        <ViolationList violations={run.violations} />
      </Space>
    );
  }
  return (
    <Alert
      type="warning"
      showIcon
      data-testid="run-verdict"
      message={t('ledger.errorTitle')}
      description={t('ledger.errorText', { id: run.id, error: run.error ?? '' })}
    />
  );
}

export function VerificationCard() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const operator = useOperator();
  const queryClient = useQueryClient();
  const { busy, run: act } = useBusyAction();
  const mayStart = mayCall(operator, consoleSystemApi.startLedgerRun);

  const latest = useQuery({
    queryKey: [RUNS_KEY, 'latest'],
    queryFn: () => api.call(consoleSystemApi.ledgerRuns, { pageNum: 1, pageSize: 1 }),
    refetchInterval: (query) => whileRunning(query.state.data?.rows[0]?.status),
  });
  const latestId = latest.data?.rows[0]?.id;
  const detail = useQuery({
    queryKey: [RUNS_KEY, 'detail', latestId],
    queryFn: () => api.call(consoleSystemApi.ledgerRun, { id: latestId! }),
    enabled: latestId !== undefined,
    refetchInterval: (query) => whileRunning(query.state.data?.status),
  });
  const run = detail.data;
  const running = run?.status === 'running';

  const start = () =>
    act(async () => {
      const { result, msg } = await api.send(consoleSystemApi.startLedgerRun);
      if (msg === NOTHING_TO_DO_MSG)
        void message.info(t('ledger.alreadyRunning', { id: result.id }));
      else void message.success(t('ledger.started', { id: result.id }));
      await queryClient.invalidateQueries({ queryKey: [RUNS_KEY] });
    });

  return (
    <Card
      title={t('ledger.verification')}
      data-testid="verification"
      extra={
        mayStart ? (
          <Button
            type="primary"
            icon={<SafetyCertificateOutlined />}
            loading={busy}
            disabled={running}
            onClick={() => void start()}
            data-testid="start-run"
          >
            {t('ledger.start')}
          </Button>
        ) : (
          <Typography.Text type="secondary">{t('ledger.adminOnly')}</Typography.Text>
        )
      }
    >
      <Typography.Paragraph type="secondary" style={{ maxWidth: 900 }}>
        {t('ledger.explain')}
      </Typography.Paragraph>
      {(latest.isError || detail.isError) && (
        <Typography.Paragraph type="danger">
          {errorText(latest.error ?? detail.error)}
        </Typography.Paragraph>
      )}
      {latest.data && latest.data.rows.length === 0 && (
        <Typography.Text type="secondary" data-testid="no-runs">
          {t('ledger.noRuns')}
        </Typography.Text>
      )}
      {run && <Verdict run={run} />}
    </Card>
  );
}
