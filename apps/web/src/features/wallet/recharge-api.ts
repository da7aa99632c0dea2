/**
 * The deposit calls: the channels (as a query), submitting a deposit, its records and its payment
 * proof.
 */
import {
  walletApi as routes,
  type InMoneyBody,
  type RechargeChannel,
  type RechargeRecord,
} from '@bourse/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api';

export type { RechargeChannel, RechargeRecord } from '@bourse/shared';

/** Every visible deposit channel, in the operator's order. */
export function useRechargeChannels({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: ['rechargeChannels'],
    queryFn: (): Promise<RechargeChannel[]> => api.call(routes.rechargeChannels, {}),
    enabled,
  });
}

/** Submits a deposit; sent as JSON (the route's encoding) so the proof travels as one string. */
export function submitRecharge(body: InMoneyBody): Promise<RechargeRecord> {
  return api.call(routes.submitRecharge, body);
}

export function fetchRecharge(id: number): Promise<RechargeRecord> {
  return api.call(routes.recharge, { id });
}

export function fetchRechargePage(query: { pageNum: number; pageSize: number; status?: number }) {
  return api.call(routes.recharges, query);
}

/** The proof image of one of the user's deposits, as a Blob; null when there is none to show. */
export async function fetchRechargeProof(id: number, signal?: AbortSignal): Promise<Blob | null> {
  try {
    return await api.call(routes.rechargeProof, { id }, { signal, catchError: true });
  } catch {
    return null;
  }
}

/**
 * A request id for one filling of a form (a deposit, an exchange's quote): 128 random bits in hex,
 * from getRandomValues (which, unlike randomUUID, works on plain-http addresses too).
 */
export function newRequestId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}
