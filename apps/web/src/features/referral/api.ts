/** The calls of team and referral, and their query keys. */
import { referralApi as routes, type ReferralTerms, type TeamDashboard } from '@bourse/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api';

export type {
  CommissionRecord,
  CurrencyAmount as CurrencyAmountRow,
  ReferralTerms,
  TeamDashboard,
  TeamMember,
} from '@bourse/shared';

export const referralKeys = {
  terms: ['referralTerms'] as const,
  dashboard: (startTime: string) => ['teamDashboard', startTime] as const,
  members: (level: number) => ['teamMembers', level] as const,
  commissions: ['teamCommissions'] as const,
};

export function useReferralTerms() {
  return useQuery({
    queryKey: referralKeys.terms,
    queryFn: (): Promise<ReferralTerms> => api.call(routes.terms),
  });
}

export function useTeamDashboard(startTime: string) {
  return useQuery({
    queryKey: referralKeys.dashboard(startTime),
    queryFn: (): Promise<TeamDashboard> => api.call(routes.teamDashboard, { startTime }),
  });
}

export function fetchMembers(level: number, page: { pageNum: number; pageSize: number }) {
  return api.call(routes.lowerTeam, { ...page, teamLevel: level });
}

export function fetchCommissions(page: { pageNum: number; pageSize: number }) {
  return api.call(routes.commissions, page);
}

/** The link that registers with `inviteCode`: the app's register route with the code. */
export function inviteLink(registerHref: string, inviteCode: string): string {
  const { origin, pathname } = window.location;
  return `${origin}${pathname}#${registerHref}${registerHref.includes('?') ? '&' : '?'}inviteCode=${encodeURIComponent(inviteCode)}`;
}
