/** The account calls of /api/userInfo. */
import type { UserInfo } from '@bourse/shared';
import { api } from '../../api';
import type { SignedIn } from '../../api/session';

export interface AreaCode {
  id: number;
  areaCode: string;
  countryCode: string;
  countryName: string;
}

export interface RegisterInput {
  regType: number;
  userAccount: string;
  areaCode?: string;
  userPwd: string;
  inviteCode?: string;
  yzmCode?: string;
}

export async function fetchAreaCodes(): Promise<AreaCode[]> {
  const { rows } = await api.page<AreaCode>('/api/userInfo/getPhoneAreaCodeList', {
    pageNum: 1,
    pageSize: 100,
  });
  return rows;
}

export function login(input: { userAccount: string; userPwd: string; areaCode?: string }) {
  return api.post<SignedIn>('/api/userInfo/login', input, { catchError: true });
}

export function register(input: RegisterInput) {
  return api.post<SignedIn>('/api/userInfo/reg', { ...input }, { catchError: true });
}

export function sendEmailCode(email: string) {
  return api.post(
    '/api/userInfo/sendEmailVerificationCode',
    { email, purpose: 'reg' },
    { catchError: true },
  );
}

export function sendPhoneCode(areaCode: string, phone: string) {
  return api.post(
    '/api/userInfo/sendPhoneVerificationCode',
    { areaCode, phone, purpose: 'reg' },
    { catchError: true },
  );
}

export function modifyUserInfo(nickName: string) {
  return api.post<UserInfo>('/api/userInfo/modifyUserInfo', { nickName }, { catchError: true });
}

export function updateUserPwd(oldPwd: string, newPwd: string) {
  return api.post('/api/userInfo/updateUserPwd', { oldPwd, newPwd }, { catchError: true });
}

export function updateUserWithPwd(input: { newPwd: string; oldPwd?: string; userPwd?: string }) {
  return api.post('/api/userInfo/updateUserWithPwd', { ...input }, { catchError: true });
}

export async function isSetWithPwd(): Promise<boolean> {
  const data = await api.get<{ isSetWithPwd: number | boolean }>('/api/userInfo/isSetWithPwd');
  return Boolean(data?.isSetWithPwd);
}

export interface PanelData {
  currencyId: number;
  currencyName: string;
  userBalanceConvert: string;
  unpricedCurrencies: string[];
  accountType: number;
  notReadMessageCount: number;
}

export function personCenterPanelData() {
  return api.get<PanelData>('/api/userInfo/personCenterPanelData');
}
