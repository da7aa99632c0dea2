/**
 * The signed-in operator, as `auth/me` answered it, for every page under the sign-in guard, and
 * what follows from their roles.
 */
import { createContext, useContext } from 'react';
import { TWO_FACTOR_ROLES, type OperatorInfo } from '@bourse/shared';

export const OperatorContext = createContext<OperatorInfo | undefined>(undefined);

export function useOperator(): OperatorInfo {
  const operator = useContext(OperatorContext);
  if (!operator) throw new Error('useOperator outside the signed-in pages');
  return operator;
}

/** The query key of the signed-in operator (one per session token). */
export const meKey = (token: string | undefined) => ['me', token] as const;

/** Whether a role of the operator requires two-factor (admin, finance), as the server decides. */
export const twoFactorRequired = (roles: readonly string[]) =>
  roles.some((role) => (TWO_FACTOR_ROLES as readonly string[]).includes(role));
