/**
 * The drawer a loan is reviewed in: the amount asked and the terms it was asked under, the user
 * and their other loans, the application's answers (an image answer fetched with the operator's
 * session, every view audited), and, while it is under review, the decision: lend an amount up to
 * the one asked (the ledger moves it from the platform's loans account at once) or reject it with
 * the reason the user reads. Either answers `hint_48` when the loan had been decided that way.
 * Once lent: its repayments and interest day by day.
 */
import { useState } from 'react';
import {
  Alert,
  App,
  Button,
  Descriptions,
  Drawer,
  Image,
  Input,
  Popconfirm,
  Skeleton,
  Space,
  Table,
  Typography,
} from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ButtonProps } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  consoleLoansApi,
  LOAN_STATUS,
  NOTHING_TO_DO_MSG,
  type ConsoleLoanDetail,
  type ConsoleLoanOrder,
  type LoanInterestRecord,
  type LoanRepayment,
} from '@bourse/shared';
import { api } from '../../api';
import { useOperator } from '../../app/operator';
import { UserCell } from '../../components/cells';
import { useObjectUrl } from '../../components/proof-image';
import { RejectDialog } from '../../components/reject-dialog';
import { percent } from '../../components/settings/parts';
import { errorText } from '../../i18n';
import { mayCall } from '../../lib/access';
import { formatAmount, formatTime } from '../../lib/format';
import { LoanStatus } from './loan-status';

type Answer = ConsoleLoanDetail['answers'][number];

function AnswerImage({ loanId, answer }: { loanId: number; answer: Answer }) {
  const { t } = useTranslation();
  const image = useQuery({
    queryKey: ['loans', 'image', loanId, answer.key],
    queryFn: () => api.call(consoleLoansApi.answerImage, { id: loanId, key: answer.key }),
    staleTime: Infinity,
    gcTime: 60_000,
  });
  const url = useObjectUrl(image.data);
  if (image.isError) return <Alert type="error" showIcon message={errorText(image.error)} />;
  if (!url) return <Skeleton.Image active style={{ width: 200, height: 150 }} />;
  return (
    <Image
      src={url}
      alt={t('loans.imageAlt', { label: answer.label })}
      style={{ maxHeight: 240, objectFit: 'contain', border: '1px solid #f0f0f0' }}
      data-testid={`loan-answer-image-${answer.key}`}
    />
  );
}

function Interest({ loan }: { loan: ConsoleLoanOrder }) {
  const { t } = useTranslation();
  const days = useQuery({
    queryKey: ['loans', 'interest', loan.id],
    queryFn: () => api.call(consoleLoansApi.interest, { loanOrderId: loan.id, pageSize: 60 }),
  });
  return (
    <>
      <Typography.Title level={5}>{t('loans.interest')}</Typography.Title>
      <Table<LoanInterestRecord>
        size="small"
        rowKey="id"
        loading={days.isPending}
        dataSource={days.data?.rows}
        pagination={false}
        data-testid="loan-review-interest"
        columns={[
          {
            title: t('loans.day'),
            key: 'day',
            render: (_, row) => `${row.day} · #${row.dayNumber}`,
          },
          {
            title: t('loans.field.terms'),
            key: 'kind',
            render: (_, row) => `${t(`loans.kind.${row.kind}`)} · ${percent(row.rate)}`,
          },
          {
            title: t('loans.amount'),
            key: 'amount',
            align: 'right',
            render: (_, row) => formatAmount(row.amount, row.currencyName),
          },
          {
            title: t('loans.settled'),
            key: 'settled',
            align: 'right',
            render: (_, row) => formatAmount(row.settled, row.currencyName),
          },
        ]}
      />
    </>
  );
}

export function LoanReview({ loan, onClose }: { loan: ConsoleLoanOrder; onClose(): void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const operator = useOperator();
  const queryClient = useQueryClient();
  const [amount, setAmount] = useState(loan.amount);
  const [busy, setBusy] = useState(false);
  const [rejecting, setRejecting] = useState(false);
  const detail = useQuery({
    queryKey: ['loans', 'detail', loan.id],
    queryFn: () => api.call(consoleLoansApi.order, { id: loan.id }),
  });
  const current = detail.data?.order ?? loan;
  const reviewing = current.status === LOAN_STATUS.reviewing;
  const mayDecide = reviewing && mayCall(operator, consoleLoansApi.approve);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['loans'] });

  async function decided(msg: string, done: string) {
    if (msg === NOTHING_TO_DO_MSG) void message.info(t('review.alreadyDone'));
    else void message.success(done);
    await refresh();
    onClose();
  }

  async function approve() {
    setBusy(true);
    try {
      const { msg } = await api.send(consoleLoansApi.approve, {
        id: loan.id,
        amount: amount.trim(),
      });
      await decided(
        msg,
        t('loans.approved', {
          order: loan.orderNo,
          amount: formatAmount(amount.trim(), loan.currencyName),
        }),
      );
    } catch (error) {
      void message.error(errorText(error));
      await refresh();
    } finally {
      setBusy(false);
    }
  }

  async function reject(reason: string) {
    const { msg } = await api.send(consoleLoansApi.reject, { id: loan.id, reason });
    await decided(msg, t('loans.rejected', { order: loan.orderNo }));
  }

  const actions = mayDecide && (
    <Space>
      <Button danger onClick={() => setRejecting(true)} data-testid="loan-reject">
        {t('loans.reject')}
      </Button>
      <Input
        style={{ width: 180 }}
        value={amount}
        inputMode="decimal"
        addonAfter={loan.currencyName}
        aria-label={t('loans.approveAmount')}
        onChange={(event) => setAmount(event.target.value)}
        data-testid="loan-approve-amount"
      />
      <Popconfirm
        title={t('loans.approveTitle', {
          amount: formatAmount(amount.trim(), loan.currencyName),
          account: loan.userAccount,
        })}
        description={t('loans.approveHelp', {
          amount: formatAmount(loan.amount, loan.currencyName),
        })}
        okText={t('loans.approve')}
        cancelText={t('common.cancel')}
        onConfirm={() => approve()}
        okButtonProps={{ 'data-testid': 'loan-approve-confirm' } as ButtonProps}
        styles={{ root: { maxWidth: 460 } }}
      >
        <Button type="primary" loading={busy} data-testid="loan-approve">
          {t('loans.approve')}
        </Button>
      </Popconfirm>
    </Space>
  );

  const lent = current.status === LOAN_STATUS.active || current.status === LOAN_STATUS.repaid;
  const items = [
    {
      key: 'asked',
      label: t('loans.field.asked'),
      children: (
        <Typography.Text strong style={{ fontSize: 18 }} data-testid="loan-review-amount">
          {formatAmount(current.amount, current.currencyName)}
        </Typography.Text>
      ),
    },
    {
      key: 'status',
      label: t('loans.field.status'),
      children: <LoanStatus loan={current} />,
    },
    {
      key: 'user',
      label: t('loans.field.user'),
      children: <UserCell account={current.userAccount} id={current.userId} />,
    },
    { key: 'book', label: t('loans.field.book'), children: t(`loans.book.${current.book}`) },
    { key: 'product', label: t('loans.field.product'), children: current.productName },
    {
      key: 'terms',
      label: t('loans.field.terms'),
      children: (
        <span data-testid="loan-review-terms">
          {t('loans.termsLine', {
            days: current.termDays,
            rate: percent(current.dailyRate),
            overdue: percent(current.overdueDailyRate),
          })}
          {current.interestFreeDays > 0 &&
            ` · ${t('loans.freeDays', { days: current.interestFreeDays })}`}
          {` · ${t(`loans.settlement.${String(current.settlement) as '1'}`)}`}
        </span>
      ),
    },
    {
      key: 'submitted',
      label: t('loans.field.submitted'),
      children: formatTime(current.createTime),
    },
    ...(lent
      ? [
          {
            key: 'lent',
            label: t('loans.field.lent'),
            children: formatAmount(current.approvedAmount ?? '0', current.currencyName),
          },
          { key: 'start', label: t('loans.field.startDate'), children: current.startDate },
          { key: 'due', label: t('loans.field.dueDate'), children: current.dueDate },
          {
            key: 'principal',
            label: t('loans.field.principal'),
            children: formatAmount(current.principal, current.currencyName),
          },
          {
            key: 'interestDue',
            label: t('loans.field.interestDue'),
            children: formatAmount(current.interestDue, current.currencyName),
          },
          {
            key: 'interestPaid',
            label: t('loans.field.interestPaid'),
            children: formatAmount(current.interestPaid, current.currencyName),
          },
          { key: 'entry', label: t('loans.field.entry'), children: `#${current.entryId ?? '–'}` },
        ]
      : []),
    ...(current.reviewedBy
      ? [{ key: 'by', label: t('loans.field.reviewedBy'), children: current.reviewedBy }]
      : []),
    ...(current.rejectReason
      ? [
          {
            key: 'reason',
            label: t('loans.field.reason'),
            span: 2,
            children: <span style={{ whiteSpace: 'pre-wrap' }}>{current.rejectReason}</span>,
          },
        ]
      : []),
  ];

  return (
    <>
      <Drawer
        open
        width={980}
        title={t('loans.reviewTitle', { order: loan.orderNo })}
        onClose={onClose}
        extra={actions}
        data-testid="loan-review"
      >
        <Descriptions column={2} size="small" bordered style={{ marginBottom: 24 }} items={items} />
        {detail.isError && <Alert type="error" showIcon message={errorText(detail.error)} />}
        {detail.data && (
          <>
            <Typography.Paragraph type="secondary" data-testid="loan-review-history">
              {t('loans.history')}: {t('loans.historyLine', detail.data.history)}
            </Typography.Paragraph>
            <Typography.Title level={5}>{t('loans.answers')}</Typography.Title>
            {detail.data.answers.length === 0 ? (
              <Typography.Paragraph type="secondary">{t('loans.noAnswers')}</Typography.Paragraph>
            ) : (
              <Descriptions
                column={1}
                size="small"
                bordered
                style={{ marginBottom: 24 }}
                data-testid="loan-review-answers"
                items={detail.data.answers.map((answer) => ({
                  key: answer.key,
                  label: answer.label,
                  children: answer.image ? (
                    <AnswerImage loanId={loan.id} answer={answer} />
                  ) : (
                    <span
                      style={{ whiteSpace: 'pre-wrap' }}
                      data-testid={`loan-answer-${answer.key}`}
                    >
                      {answer.value}
                    </span>
                  ),
                }))}
              />
            )}
            {lent && (
              <>
                <Typography.Title level={5}>{t('loans.repayments')}</Typography.Title>
                <Table<LoanRepayment>
                  size="small"
                  rowKey="id"
                  dataSource={detail.data.repayments}
                  pagination={false}
                  style={{ marginBottom: 24 }}
                  locale={{ emptyText: t('loans.noRepayments') }}
                  columns={[
                    {
                      title: t('loans.field.submitted'),
                      key: 'time',
                      render: (_, row) => formatTime(row.createTime),
                    },
                    {
                      title: t('loans.amount'),
                      key: 'amount',
                      align: 'right',
                      render: (_, row) => formatAmount(row.amount, row.currencyName),
                    },
                    {
                      title: t('loans.field.interestPaid'),
                      key: 'interest',
                      align: 'right',
                      render: (_, row) => row.interest,
                    },
                    {
                      title: t('loans.field.principal'),
                      key: 'principal',
                      align: 'right',
                      render: (_, row) => row.principal,
                    },
                  ]}
                />
                <Interest loan={current} />
              </>
            )}
          </>
        )}
      </Drawer>
      <RejectDialog
        open={rejecting}
        title={t('loans.rejectTitle', { order: loan.orderNo })}
        reasons={t('loans.reasons', { returnObjects: true })}
        onReject={reject}
        onClose={() => setRejecting(false)}
      />
    </>
  );
}
