/** The deposit calls: channels, submitting a deposit, its records and its payment proof. */
import {
  walletApi as routes,
  type InMoneyBody,
  type RechargeChannel,
  type RechargeRecord,
} from '@bourse/shared';
import { api } from '../../api';

export type { RechargeChannel, RechargeRecord } from '@bourse/shared';

export const RECHARGE_PAGE_SIZE = 20;

/** Every visible deposit channel, in the operator's order. */
export function fetchRechargeChannels(): Promise<RechargeChannel[]> {
  return api.call(routes.rechargeChannels, {});
}

/** Submits a deposit; sent as JSON (the route's encoding) so the proof travels as one string. */
export function submitRecharge(body: InMoneyBody): Promise<RechargeRecord> {
  return api.call(routes.submitRecharge, body);
}

export function fetchRecharge(id: number): Promise<RechargeRecord> {
  return api.call(routes.recharge, { id });
}

export function fetchRechargePage(pageNum: number, status?: number) {
  return api.call(routes.recharges, { pageNum, pageSize: RECHARGE_PAGE_SIZE, status });
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
 * A request id for one filling of a form: 128 random bits in hex, from getRandomValues (which,
 * unlike randomUUID, works on plain-http addresses too).
 */
export function newRequestId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}
