/**
 * The calls of copy trading (copyTradingApi): lead traders, their profiles and positions, the
 * user's relations, copies and settlements, following, editing and unfollowing, and leading
 * (status, applying, the profile, the dashboard); their query keys, so a change anywhere refreshes
 * every screen showing it.
 */
import {
  copyTradingApi as routes,
  type CopyPeriod,
  type CopyRelation,
  type CopyRow,
  type CopySettlement,
  type CopySort,
  type FollowInput,
  type LeadDashboard,
  type LeadProfile,
  type LeadProfileInput,
  type LeadStatus,
  type TraderDetail,
  type TraderPosition,
  type TraderSummary,
} from '@bourse/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api';

export type {
  CopyPeriod,
  CopyRelation,
  CopyRow,
  CopySettlement,
  CopySort,
  LeadDashboard,
  LeadProfile,
  LeadStatus,
  TraderDetail,
  TraderPosition,
  TraderSummary,
} from '@bourse/shared';

export const copyKeys = {
  traders: ['copyTraders'] as const,
  list: (sort: CopySort, period: CopyPeriod) => ['copyTraders', 'list', sort, period] as const,
  trader: (id: number) => ['copyTraders', 'detail', id] as const,
  positions: (id: number, status: 'open' | 'closed') =>
    ['copyTraders', 'positions', id, status] as const,
  relations: ['copyRelations'] as const,
  copies: (relationId: number | undefined) => ['copyCopies', relationId ?? 'all'] as const,
  settlements: (relationId: number | undefined) =>
    ['copySettlements', relationId ?? 'all'] as const,
  lead: ['copyLead'] as const,
  dashboard: ['copyLead', 'dashboard'] as const,
};

/** Relations a user holds are few; one page holds them (the server's page bound). */
export const RELATIONS_PAGE = 100;

// ------------------------------------------------------------------ traders

export function fetchTraderPage(
  page: { pageNum: number; pageSize: number },
  sort: CopySort,
  period: CopyPeriod,
): Promise<{ rows: TraderSummary[]; total: number }> {
  return api.call(routes.traders, { ...page, sort, period });
}

export function useTrader(traderId: number, signedIn: boolean) {
  return useQuery({
    queryKey: [...copyKeys.trader(traderId), signedIn],
    queryFn: (): Promise<TraderDetail> => api.call(routes.trader, { traderId }),
    enabled: Number.isInteger(traderId) && traderId > 0,
  });
}

export function fetchTraderPositions(
  traderId: number,
  status: 'open' | 'closed',
  page: { pageNum: number; pageSize: number },
): Promise<{ rows: TraderPosition[]; total: number }> {
  return api.call(routes.traderPositions, { traderId, status, ...page });
}

/** The trader's latest position (open, else closed): the example a follow preview sizes. */
export function useLatestTraderPosition(traderId: number) {
  return useQuery({
    queryKey: [...copyKeys.trader(traderId), 'latest'],
    queryFn: async (): Promise<TraderPosition | null> => {
      const page = { pageNum: 1, pageSize: 1 };
      const open = await fetchTraderPositions(traderId, 'open', page);
      if (open.rows[0]) return open.rows[0];
      const closed = await fetchTraderPositions(traderId, 'closed', page);
      return closed.rows[0] ?? null;
    },
    enabled: Number.isInteger(traderId) && traderId > 0,
  });
}

// ------------------------------------------------------------------ following

export function useRelations(enabled = true) {
  return useQuery({
    queryKey: copyKeys.relations,
    queryFn: async (): Promise<CopyRelation[]> =>
      (await api.call(routes.relations, { pageNum: 1, pageSize: RELATIONS_PAGE })).rows,
    enabled,
  });
}

export function fetchRelationPage(
  page: { pageNum: number; pageSize: number },
  status: number | undefined,
): Promise<{ rows: CopyRelation[]; total: number }> {
  return api.call(routes.relations, { ...page, status });
}

export function follow(input: FollowInput): Promise<CopyRelation> {
  return api.call(routes.follow, input);
}

export function editRelation(
  input: Omit<FollowInput, 'traderId' | 'requestId'> & { relationId: number },
): Promise<CopyRelation> {
  return api.call(routes.edit, input);
}

export function unfollow(input: {
  relationId: number;
  closeMode: number;
  requestId: string;
}): Promise<CopyRelation> {
  return api.call(routes.unfollow, input);
}

export function fetchCopyPage(
  page: { pageNum: number; pageSize: number },
  relationId: number | undefined,
): Promise<{ rows: CopyRow[]; total: number }> {
  return api.call(routes.copies, { ...page, relationId });
}

export function fetchSettlementPage(
  page: { pageNum: number; pageSize: number },
  relationId: number | undefined,
): Promise<{ rows: CopySettlement[]; total: number }> {
  return api.call(routes.settlements, { ...page, relationId });
}

// ------------------------------------------------------------------ leading

export function useLeadStatus() {
  return useQuery({
    queryKey: copyKeys.lead,
    queryFn: (): Promise<LeadStatus> => api.call(routes.leadStatus),
  });
}

export function applyToLead(requestId: string): Promise<LeadStatus> {
  return api.call(routes.apply, { requestId });
}

export function saveLeadProfile(input: LeadProfileInput): Promise<LeadProfile> {
  return api.call(routes.leadProfile, input);
}

export function useLeadDashboard() {
  return useQuery({
    queryKey: copyKeys.dashboard,
    queryFn: (): Promise<LeadDashboard> => api.call(routes.leadDashboard),
  });
}
