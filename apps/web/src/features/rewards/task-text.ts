/** A task's title and its condition, in the reader's language, with its amounts. */
import { formatMessage, type RewardTaskKind } from '@bourse/shared';
import type { RouteName } from '../../config/paths';

type Translate = (key: string) => string;

export function taskTitle(
  t: Translate,
  task: { kind: RewardTaskKind; threshold: string; currency: string },
): string {
  return formatMessage(t(`task_${task.kind}`), [task.threshold, task.currency]);
}

export function taskRule(
  t: Translate,
  task: { kind: RewardTaskKind; threshold: string; currency: string },
): string {
  return formatMessage(t(`taskRule_${task.kind}`), [task.threshold, task.currency]);
}

/** Where a user goes to do a task. */
export const TASK_ROUTE: Record<RewardTaskKind, RouteName> = {
  identity0: 'authentication',
  identity1: 'authentication1',
  firstDeposit: 'recharge',
  firstTrade: 'quotes',
  volume: 'quotes',
  invite: 'share',
};

/** A rate as a percentage ("0.025" is "2.5%"), without a float. */
export function percent(rate: string): string {
  const [whole = '0', fraction = ''] = rate.split('.');
  const digits = `${whole}${fraction.padEnd(2, '0')}`;
  const point = whole.length + 2;
  const integer = digits.slice(0, point).replace(/^0+(?=\d)/, '');
  const rest = digits.slice(point).replace(/0+$/, '');
  return `${integer}${rest ? `.${rest}` : ''}%`;
}
