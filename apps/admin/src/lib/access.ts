/**
 * Who may use what: the route table names the roles of each operator call (`roles` of
 * packages/shared/src/contract/operators.ts), and the server's guard refuses the others. The
 * console shows a page or an action only to an operator the route's roles admit, from the same
 * declaration, so the two cannot disagree.
 */
import type { OperatorInfo, Route } from '@bourse/shared';

export function mayCall(operator: Pick<OperatorInfo, 'roles'>, route: Route): boolean {
  return !route.roles || route.roles.some((role) => operator.roles.includes(role));
}
