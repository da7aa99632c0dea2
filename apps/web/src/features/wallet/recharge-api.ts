/** The deposit calls: channels, submitting a deposit, its records and its payment proof. */
import { type InMoneyBody, type RechargeChannel, type RechargeRecord } from '@bourse/shared';
import { api } from '../../api';

export type { RechargeChannel, RechargeRecord } from '@bourse/shared';

export const RECHARGE_PAGE_SIZE = 20;

/** Every visible deposit channel, in the operator's order. */
export async function fetchRechargeChannels(): Promise<RechargeChannel[]> {
  return (await api.get<RechargeChannel[] | undefined>('/api/rechargeChannelConfig/list')) ?? [];
}

/** Submits a deposit; sent as JSON so the proof travels as one string. */
export function submitRecharge(body: InMoneyBody): Promise<RechargeRecord> {
  return api.post<RechargeRecord>('/api/userRecharge/inMoney', { ...body }, { json: true });
}

export function fetchRecharge(id: number): Promise<RechargeRecord> {
  return api.get<RechargeRecord>('/api/userRecharge/detail', { id });
}

export function fetchRechargePage(pageNum: number, status?: number) {
  return api.page<RechargeRecord>('/api/userRecharge/list', {
    pageNum,
    pageSize: RECHARGE_PAGE_SIZE,
    status,
  });
}

/** The proof image of one of the user's deposits, as a Blob; null when there is none to show. */
export async function fetchRechargeProof(id: number, signal?: AbortSignal): Promise<Blob | null> {
  try {
    return await api.file('/api/userRecharge/proof', { id }, { signal, catchError: true });
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
