/**
 * The notifications of copy trading (the messages module's NoticeEvent): a copy that could not be
 * opened (the follower's copies say why), a trader suspended or resumed (to the trader and each follower), an
 * application approved or rejected (with the operator's reason), and a settlement's share paid
 * (to the follower) and received (to the trader). Opened copies are not announced one by one:
 * each is an ordinary contract position with its own notification.
 */
import type { NoticeEvent } from '../messages';

export function copyFailed(row: {
  userId: number;
  taskId: number;
  traderName: string;
  product: string;
  relationId: number;
}): NoticeEvent {
  return {
    userId: row.userId,
    type: 'copyFailed',
    ref: `copyTask:${row.taskId}:failed`,
    params: [row.traderName, row.product],
    link: { route: 'copyCopies', query: { relationId: row.relationId } },
  };
}

export function traderStatus(row: {
  userId: number;
  traderId: number;
  traderName: string;
  suspended: boolean;
  reason: string;
  at: number;
}): NoticeEvent {
  return {
    userId: row.userId,
    type: row.suspended ? 'copyTraderSuspended' : 'copyTraderResumed',
    ref: `copyTrader:${row.traderId}:${row.suspended ? 'suspended' : 'resumed'}:${row.at}`,
    params: [row.traderName, row.reason],
    link: { route: 'copyTrader', query: { traderId: row.traderId } },
  };
}

export function application(row: {
  userId: number;
  id: number;
  approved: boolean;
  reason: string | null;
}): NoticeEvent {
  return {
    userId: row.userId,
    type: row.approved ? 'copyApplicationApproved' : 'copyApplicationRejected',
    ref: `copyApplication:${row.id}:reviewed`,
    params: row.approved ? [] : [row.reason ?? ''],
    link: { route: 'copyLead' },
  };
}

export function sharePaid(row: {
  followerId: number;
  traderId: number;
  settlementId: number;
  traderName: string;
  followerName: string;
  paid: string;
  currency: string;
  day: string;
}): NoticeEvent[] {
  return [
    {
      userId: row.followerId,
      type: 'copySharePaid',
      ref: `copySettlement:${row.settlementId}:paid`,
      params: [row.paid, row.currency, row.traderName, row.day],
      link: { route: 'copySettlements' },
    },
    {
      userId: row.traderId,
      type: 'copyShareReceived',
      ref: `copySettlement:${row.settlementId}:received`,
      params: [row.paid, row.currency, row.followerName, row.day],
      link: { route: 'copyLeadDashboard' },
    },
  ];
}
