/**
 * The loan calls (loansApi) and their query keys: the products, the user's loans and panel, a
 * loan's interest by day and its repayments, applying and repaying. The figures a screen shows
 * before confirming come from @bourse/shared (loans.ts), the functions the server pays by.
 */
import {
  loansApi as routes,
  type LoanOrder,
  type LoanPanel,
  type LoanProduct,
  type LoanRepayment,
  type RouteInput,
} from '@bourse/shared';
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { api } from '../../api';

export type {
  LoanField,
  LoanInterestRecord,
  LoanOrder,
  LoanPanel,
  LoanProduct,
  LoanRepayment,
} from '@bourse/shared';

export const loanKeys = {
  all: ['loans'] as const,
  products: ['loans', 'products'] as const,
  panel: ['loans', 'panel'] as const,
  orders: ['loans', 'orders'] as const,
  order: (id: number) => ['loans', 'order', id] as const,
  interest: (id: number) => ['loans', 'interest', id] as const,
  repayments: (id: number) => ['loans', 'repayments', id] as const,
};

/** Every open product (a handful: one page holds them). */
export function useLoanProducts() {
  return useQuery({
    queryKey: loanKeys.products,
    queryFn: async (): Promise<LoanProduct[]> =>
      (await api.call(routes.loanProducts, { pageNum: 1, pageSize: 100 })).rows,
    refetchOnMount: 'always',
  });
}

export function useLoanPanel() {
  return useQuery({
    queryKey: loanKeys.panel,
    queryFn: (): Promise<LoanPanel> => api.call(routes.loanPanel),
    refetchOnMount: 'always',
  });
}

export function fetchLoanPage(page: { pageNum: number; pageSize: number }, status?: number) {
  return api.call(routes.loanOrders, { ...page, status });
}

export function useLoan(id: number, enabled: boolean) {
  return useQuery({
    queryKey: loanKeys.order(id),
    queryFn: (): Promise<LoanOrder> => api.call(routes.loanOrder, { id }),
    enabled,
    refetchOnMount: 'always',
  });
}

export function fetchInterestPage(
  loanOrderId: number,
  page: { pageNum: number; pageSize: number },
) {
  return api.call(routes.loanInterestRecords, { ...page, loanOrderId });
}

export function fetchRepaymentPage(
  loanOrderId: number,
  page: { pageNum: number; pageSize: number },
) {
  return api.call(routes.loanRepayments, { ...page, loanOrderId });
}

/** An application; sent as JSON (the route's encoding) so images travel as strings. */
export function applyLoan(body: RouteInput<typeof routes.applyLoan>): Promise<LoanOrder> {
  return api.call(routes.applyLoan, body);
}

export function repayLoan(body: RouteInput<typeof routes.repayLoan>): Promise<LoanRepayment> {
  return api.call(routes.repayLoan, body);
}

/** After an application or a repayment: the loans, the panel and the balances are read again. */
export function loansChanged(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: loanKeys.all });
  void queryClient.invalidateQueries({ queryKey: ['balances'] });
  void queryClient.invalidateQueries({ queryKey: ['userBalance'] });
}
