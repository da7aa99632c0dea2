/** The signed-in operator, as `auth/me` answered it, for every page under the sign-in guard. */
import { createContext, useContext } from 'react';
import type { OperatorInfo } from '@bourse/shared';

export const OperatorContext = createContext<OperatorInfo | undefined>(undefined);

export function useOperator(): OperatorInfo {
  const operator = useContext(OperatorContext);
  if (!operator) throw new Error('useOperator outside the signed-in pages');
  return operator;
}

/** The query key of the signed-in operator (one per session token). */
export const meKey = (token: string | undefined) => ['me', token] as const;
