/**
 * Whether the user's identity verification allows withdrawals (the operator decides which level
 * they need): read before the user fills the form, so the withdraw screen can say so first.
 */
import { useQuery } from '@tanstack/react-query';
import { identityApi } from '@bourse/shared';
import { api } from '../../api';

/** The level withdrawals need when the user does not have it yet; undefined when they may. */
export function useMissingWithdrawLevel(): number | undefined {
  const requirements = useQuery({
    // The identity screens read the same answer under the same key.
    queryKey: ['identityRequirements'],
    queryFn: () => api.call(identityApi.requirements),
    refetchOnMount: 'always',
  });
  const withdraw = requirements.data?.requirements.find((item) => item.feature === 'withdraw');
  return withdraw && !withdraw.met ? withdraw.minLevel : undefined;
}
