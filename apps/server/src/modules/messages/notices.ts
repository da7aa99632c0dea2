/**
 * The notifications of the events other modules tell (the messages module's NoticeEvent), one
 * builder per kind of event: its type, its ref (unique per user: the same event seen twice writes
 * once), the parameters of its text `notify_<type>` in the locale files and the app's screen of
 * its object (route names of apps/web/src/config/paths.ts).
 */
import { randomBytes } from 'node:crypto';
import type { NoticeEvent } from './service';

type Amount = { amount: string; currency: string };

export function deposit(
  row: { userId: number; id: number; orderNo: string; reason?: string | null } & Amount,
  approved: boolean,
): NoticeEvent {
  return {
    userId: row.userId,
    type: approved ? 'depositApproved' : 'depositRejected',
    ref: `recharge:${row.id}:${approved ? 'approved' : 'rejected'}`,
    params: approved
      ? [row.amount, row.currency, row.orderNo]
      : [row.amount, row.currency, row.orderNo, row.reason ?? ''],
    link: { route: 'rechargeDetail', query: { id: row.id } },
  };
}

export function withdrawal(
  row: { userId: number; id: number; orderNo: string; reason?: string | null } & Amount,
  paid: boolean,
): NoticeEvent {
  return {
    userId: row.userId,
    type: paid ? 'withdrawPaid' : 'withdrawRejected',
    ref: `withdraw:${row.id}:${paid ? 'paid' : 'rejected'}`,
    params: paid
      ? [row.amount, row.currency, row.orderNo]
      : [row.amount, row.currency, row.orderNo, row.reason ?? ''],
    link: { route: 'withdrawRecord' },
  };
}

/** What closed a contract: the spec's close reasons (CLOSE_REASON). */
export type ContractEnd = 'closed' | 'takeProfit' | 'stopLoss' | 'liquidated';

const CONTRACT_TYPE = {
  closed: 'contractClosed',
  takeProfit: 'contractTakeProfit',
  stopLoss: 'contractStopLoss',
  liquidated: 'contractLiquidated',
} as const;

/** A contract opened (at market, or a resting entry filled): at the deciding tick's price. */
export function contractOpened(row: {
  userId: number;
  id: number;
  orderNo: string;
  product: string;
  price: string;
}): NoticeEvent {
  return {
    userId: row.userId,
    type: 'contractOpened',
    ref: `contract:${row.id}:opened`,
    params: [row.product, row.price, row.orderNo],
    link: { route: 'contractPosition', query: { tab: 'contract' } },
  };
}

/** A contract closed, by its owner or a level: at the deciding tick's price, with its result. */
export function contractEnded(
  row: { userId: number; id: number; orderNo: string; product: string; price: string; pnl: string },
  end: ContractEnd,
): NoticeEvent {
  return {
    userId: row.userId,
    type: CONTRACT_TYPE[end],
    ref: `contract:${row.id}:ended`,
    params: [row.product, row.price, row.pnl, row.orderNo],
    link: { route: 'contractPosition', query: { tab: 'contract' } },
  };
}

export function limitOrderFilled(row: {
  userId: number;
  id: number;
  orderNo: string;
  product: string;
  price: string;
  quantity: string;
}): NoticeEvent {
  return {
    userId: row.userId,
    type: 'limitOrderFilled',
    ref: `spot:${row.id}:filled`,
    params: [row.product, row.price, row.quantity, row.orderNo],
    link: { route: 'bibiOrder' },
  };
}

export function fastTradeSettled(row: {
  userId: number;
  id: number;
  orderNo: string;
  product: string;
  price: string;
  pnl: string;
  currency: string;
}): NoticeEvent {
  return {
    userId: row.userId,
    type: 'fastTradeSettled',
    ref: `fast:${row.id}:settled`,
    params: [row.product, row.price, row.pnl, row.currency, row.orderNo],
    link: { route: 'contractPosition', query: { tab: 'fast' } },
  };
}

export function identity(
  row: { userId: number; id: number; level: number; reason?: string | null },
  approved: boolean,
): NoticeEvent {
  return {
    userId: row.userId,
    type: approved ? 'identityApproved' : 'identityRejected',
    ref: `identity:${row.id}:${approved ? 'approved' : 'rejected'}`,
    params: approved ? [] : [row.reason ?? ''],
    link: { route: row.level === 1 ? 'authentication1' : 'authentication' },
  };
}

/** A new sign-in: where from (the device's description and its address). */
export function newSignIn(row: {
  userId: number;
  sessionId: number;
  device: string;
  ip: string;
}): NoticeEvent {
  return {
    userId: row.userId,
    type: 'newSignIn',
    ref: `session:${row.sessionId}`,
    params: [row.device, row.ip],
    link: { route: 'change' },
  };
}

/**
 * A security change (password, two-factor, a new API key). Nothing replays these (they happen in
 * the user's own request), so each is its own event: its ref is the moment and a random tag.
 */
export function security(
  userId: number,
  type: 'passwordChanged' | 'twoFactorChanged' | 'apiKeyCreated',
  at: Date,
  params: readonly string[] = [],
): NoticeEvent {
  return {
    userId,
    type,
    ref: `${type}:${at.getTime()}:${randomBytes(6).toString('hex')}`,
    params,
    link: { route: 'change' },
  };
}
