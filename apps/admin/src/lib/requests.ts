/**
 * The two kinds of request the finance queues review: deposits (`recharge`) and withdrawals
 * (`withdraw`). Of each: its statuses, the page that shows it, the query key its lists are kept
 * under (a decision refreshes them) and its calls: the list, the decision (approving a deposit,
 * marking a withdrawal paid) and the rejection.
 */
import {
  operatorsApi,
  RECHARGE_STATUS,
  WITHDRAW_STATUS,
  type ReviewedRecharge,
  type ReviewedWithdraw,
  type RouteInput,
} from '@bourse/shared';
import { api } from '../api';

export const STATUSES = { recharge: RECHARGE_STATUS, withdraw: WITHDRAW_STATUS } as const;
export type RequestKind = keyof typeof STATUSES;

/** A request of each kind, as the queues list it. */
export interface RequestOf {
  recharge: ReviewedRecharge;
  withdraw: ReviewedWithdraw;
}
export type ReviewedRequest = RequestOf[RequestKind];

/** The page of each kind: the namespace of its texts and the test id of its table. */
export const PAGE = { recharge: 'deposits', withdraw: 'withdrawals' } as const;

/** The query key of each kind's lists. */
export const LIST_KEY = { recharge: 'recharges', withdraw: 'withdrawals' } as const;

export const CALLS = {
  recharge: { decide: operatorsApi.approveRecharge, reject: operatorsApi.rejectRecharge },
  withdraw: { decide: operatorsApi.payWithdrawal, reject: operatorsApi.rejectWithdrawal },
} as const;

export type ReviewListInput = RouteInput<typeof operatorsApi.recharges>;

/** A page of requests of one kind (reviewListQuery: status and user when given). */
export function listRequests<K extends RequestKind>(kind: K, input: ReviewListInput) {
  const page =
    kind === 'recharge'
      ? api.call(operatorsApi.recharges, input)
      : api.call(operatorsApi.withdrawals, input);
  return page as Promise<{ rows: RequestOf[K][]; total: number }>;
}
