/**
 * The kinds of request the console's queues review: deposits (`recharge`) and withdrawals
 * (`withdraw`), by finance; identity verifications (`identity`), by support. Of each: its
 * statuses, the page that shows it, the query key its lists are kept under (a decision, or the
 * server's event for that queue, refreshes them) and its calls: the list, the decision (approving
 * a deposit or a verification, marking a withdrawal paid) and the rejection.
 */
import {
  AUTH_RECORD_STATUS,
  consoleIdentityApi,
  operatorsApi,
  RECHARGE_STATUS,
  WITHDRAW_STATUS,
  type ReviewedAuthRecord,
  type ReviewedRecharge,
  type ReviewedWithdraw,
  type RouteInput,
} from '@bourse/shared';
import { api } from '../api';

const { none: _, ...IDENTITY_STATUS } = AUTH_RECORD_STATUS;

export const STATUSES = {
  recharge: RECHARGE_STATUS,
  withdraw: WITHDRAW_STATUS,
  identity: IDENTITY_STATUS,
} as const;
export type RequestKind = keyof typeof STATUSES;
/** The kinds that move money (an amount in a currency). */
export type MoneyKind = 'recharge' | 'withdraw';

/** A request of each kind, as the queues list it. */
export interface RequestOf {
  recharge: ReviewedRecharge;
  withdraw: ReviewedWithdraw;
  identity: ReviewedAuthRecord;
}
export type ReviewedRequest = RequestOf[RequestKind];
export type MoneyRequest = RequestOf[MoneyKind];

/** The page of each kind: the namespace of its texts and the test id of its table. */
export const PAGE = {
  recharge: 'deposits',
  withdraw: 'withdrawals',
  identity: 'identity',
} as const;

/** The query key of each kind's lists: the name of its queue in the server's events. */
export const LIST_KEY = {
  recharge: 'recharges',
  withdraw: 'withdrawals',
  identity: 'identity',
} as const;

export const CALLS = {
  recharge: { decide: operatorsApi.approveRecharge, reject: operatorsApi.rejectRecharge },
  withdraw: { decide: operatorsApi.payWithdrawal, reject: operatorsApi.rejectWithdrawal },
  identity: {
    decide: consoleIdentityApi.approveIdentity,
    reject: consoleIdentityApi.rejectIdentity,
  },
} as const;

export type ReviewListInput = RouteInput<typeof operatorsApi.recharges>;

/** A page of requests of one kind (status and user when given). */
export function listRequests<K extends RequestKind>(kind: K, input: ReviewListInput) {
  const page =
    kind === 'recharge'
      ? api.call(operatorsApi.recharges, input)
      : kind === 'withdraw'
        ? api.call(operatorsApi.withdrawals, input)
        : api.call(consoleIdentityApi.identityRecords, input);
  return page as Promise<{ rows: RequestOf[K][]; total: number }>;
}
