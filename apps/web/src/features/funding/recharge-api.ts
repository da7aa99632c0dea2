/** The deposit calls: channels, submitting a deposit, its records and its payment proof. */
import { type InMoneyBody, type RechargeChannel, type RechargeRecord } from '@bourse/shared';
import { api } from '../../api';
import { currentLanguage } from '../../i18n';
import { baseUrl } from '../../lib/lines';
import { getToken } from '../../lib/storage';

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

/**
 * The proof image of one of the user's deposits, as a Blob. The call answers bytes, not an
 * envelope, so the JSON request client cannot read it; it is sent with the same headers.
 * Resolves to null when there is no proof to show.
 */
export async function fetchRechargeProof(id: number, signal?: AbortSignal): Promise<Blob | null> {
  const language = currentLanguage();
  const headers: Record<string, string> = {
    'Accept-Language': language.bcp47,
    LanguageId: String(language.id),
  };
  const token = getToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(`${baseUrl()}/api/userRecharge/proof?id=${id}`, {
    headers,
    signal,
  });
  const type = response.headers.get('content-type') ?? '';
  if (!response.ok || !type.startsWith('image/')) return null;
  return response.blob();
}

/**
 * A request id for one filling of a form: 128 random bits in hex, from getRandomValues (which,
 * unlike randomUUID, works on plain-http addresses too).
 */
export function newRequestId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}
