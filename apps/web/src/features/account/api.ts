/** The account calls of /api/userInfo. */
import { accountApi as routes, assetsApi, type PhoneAreaCode } from '@bourse/shared';
import { api } from '../../api';

/** A phone area code of the picker. */
export type AreaCode = PhoneAreaCode;

export interface RegisterInput {
  regType: number;
  userAccount: string;
  areaCode?: string;
  userPwd: string;
  inviteCode?: string;
  yzmCode?: string;
}

export async function fetchAreaCodes(): Promise<AreaCode[]> {
  const { rows } = await api.call(routes.phoneAreaCodes, { pageNum: 1, pageSize: 100 });
  return rows;
}

export function login(input: { userAccount: string; userPwd: string; areaCode?: string }) {
  return api.call(routes.login, input, { catchError: true });
}

/** The second step of a sign-in with two-factor on: the login's challenge and a code. */
export function loginTwoFactor(challenge: string, code: string) {
  return api.call(routes.loginTwoFactor, { challenge, code }, { catchError: true });
}

export function register(input: RegisterInput) {
  return api.call(routes.register, { ...input }, { catchError: true });
}

export function sendEmailCode(email: string) {
  return api.call(routes.sendEmailCode, { email, purpose: 'reg' }, { catchError: true });
}

export function sendPhoneCode(areaCode: string, phone: string) {
  return api.call(routes.sendPhoneCode, { areaCode, phone, purpose: 'reg' }, { catchError: true });
}

export function modifyUserInfo(nickName: string) {
  return api.call(routes.modifyUserInfo, { nickName }, { catchError: true });
}

/** `twoFactorCode`: asked once the user turned two-factor on. */
export function updateUserPwd(oldPwd: string, newPwd: string, twoFactorCode?: string) {
  return api.call(
    routes.updatePassword,
    { oldPwd, newPwd, ...(twoFactorCode ? { twoFactorCode } : {}) },
    { catchError: true },
  );
}

export function updateUserWithPwd(input: {
  newPwd: string;
  oldPwd?: string;
  userPwd?: string;
  twoFactorCode?: string;
}) {
  return api.call(routes.updateWithdrawalPassword, { ...input }, { catchError: true });
}

export async function isSetWithPwd(): Promise<boolean> {
  const data = await api.call(routes.isSetWithPwd);
  return Boolean(data?.isSetWithPwd);
}

/** The person centre's panel (an assets call): the valuation, the book and the unread messages. */
export function personCenterPanelData() {
  return api.call(assetsApi.panelData);
}
