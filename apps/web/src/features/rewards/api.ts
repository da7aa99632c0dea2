/** The calls of welfare and awards, and their query keys. */
import { rewardsApi as routes, type DepositTier, type WelfareList } from '@bourse/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api';

export type { AwardRecord, DepositTier, WelfareCampaign, WelfareTask } from '@bourse/shared';

export const rewardKeys = {
  welfare: ['welfare'] as const,
  awards: ['awards'] as const,
  tiers: (currencyId: number) => ['depositTiers', currencyId] as const,
};

/** The task centre (reading it evaluates the user's open tasks on the server first). */
export function useWelfare() {
  return useQuery({
    queryKey: rewardKeys.welfare,
    queryFn: (): Promise<WelfareList> => api.call(routes.welfareList),
  });
}

export function fetchAwardPage(page: { pageNum: number; pageSize: number }, source?: number) {
  return api.call(routes.awardList, { ...page, source });
}

export function useDepositTiers(currencyId: number) {
  return useQuery({
    queryKey: rewardKeys.tiers(currencyId),
    queryFn: async (): Promise<DepositTier[]> =>
      (await api.call(routes.depositTiers, { currencyId })).rows,
    enabled: currencyId > 0,
  });
}
