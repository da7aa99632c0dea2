// @vitest-environment node
/**
 * The account calls (accountApi) and the session's own (sign-out, reading the user again), against
 * a real HTTP server: each goes to its path with its method and encoding, as before the route
 * table, and answers what the screens read.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { ACCOUNT_TYPE, accountApi, type UserInfo } from '@bourse/shared';
import { ApiError } from '../../api';
import { refreshSignedInUser, signOut } from '../../api/session';
import { getItem, getToken, setItem, STORAGE_KEY } from '../../lib/storage';
import { serveAsApiLine } from '../../test/api-line';
import {
  fetchAreaCodes,
  isSetWithPwd,
  login,
  modifyUserInfo,
  register,
  sendEmailCode,
  sendPhoneCode,
  updateUserPwd,
  updateUserWithPwd,
} from './api';

const server = serveAsApiLine();
const done = (data?: unknown) => ({ body: { code: 200, msg: 'hint_success', data } });

const user: UserInfo = {
  id: 7,
  userAccount: 'ada@example.com',
  regType: 1,
  areaCode: null,
  phone: null,
  email: 'ada@example.com',
  nickName: 'ada',
  avatar: null,
  inviteCode: 'ABCD1234',
  accountType: ACCOUNT_TYPE.live,
  isSetWithPwd: 0,
  authStatus: 0,
  authLevel: -1,
  createTime: '2026-11-26T10:00:00.000Z',
  lastLoginTime: null,
  withdrawHoldUntil: null,
};

beforeEach(() => {
  setItem(STORAGE_KEY.token, 'secret-token');
});

/** The only request the server received. */
function received() {
  expect(server.requests).toHaveLength(1);
  return server.requests[0]!;
}

function form(body: string): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(body));
}

describe('account calls', () => {
  it('signs in with a form post and answers the token and the user', async () => {
    server.answer(accountApi.login.path, done({ token: 'new-token', userInfo: user }));
    await expect(login({ userAccount: 'ada@example.com', userPwd: 'Secret123' })).resolves.toEqual({
      token: 'new-token',
      userInfo: user,
    });
    const request = received();
    expect(request).toMatchObject({ method: 'POST', path: accountApi.login.path });
    expect(request.headers['content-type']).toContain('application/x-www-form-urlencoded');
    expect(form(request.body)).toEqual({ userAccount: 'ada@example.com', userPwd: 'Secret123' });
  });

  it('hands a refused sign-in to the caller, which asked to catch errors', async () => {
    server.answer(accountApi.login.path, {
      status: 422,
      body: { code: 422, msg: 'hint_loginFailed' },
    });
    const error = await login({ userAccount: 'ada@example.com', userPwd: 'Wrong123' }).catch(
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ msg: 'hint_loginFailed', handled: false });
  });

  it('registers with a form post', async () => {
    server.answer(accountApi.register.path, done({ token: 'new-token', userInfo: user }));
    const result = await register({
      regType: 0,
      userAccount: '5551234567',
      areaCode: '1',
      userPwd: 'Secret123',
      yzmCode: '123456',
    });
    expect(result.token).toBe('new-token');
    const request = received();
    expect(request).toMatchObject({ method: 'POST', path: accountApi.register.path });
    expect(form(request.body)).toEqual({
      regType: '0',
      userAccount: '5551234567',
      areaCode: '1',
      userPwd: 'Secret123',
      yzmCode: '123456',
    });
  });

  it('asks for registration codes by email and by phone', async () => {
    server.answer(accountApi.sendEmailCode.path, {
      body: { code: 200, msg: 'hint_codeSent' },
    });
    server.answer(accountApi.sendPhoneCode.path, {
      body: { code: 200, msg: 'hint_codeSent' },
    });
    await sendEmailCode('ada@example.com');
    await sendPhoneCode('44', '7700900123');
    const [email, phone] = server.requests;
    expect(email).toMatchObject({
      method: 'POST',
      path: accountApi.sendEmailCode.path,
    });
    expect(form(email!.body)).toEqual({ email: 'ada@example.com', purpose: 'reg' });
    expect(phone).toMatchObject({
      method: 'POST',
      path: accountApi.sendPhoneCode.path,
    });
    expect(form(phone!.body)).toEqual({ areaCode: '44', phone: '7700900123', purpose: 'reg' });
  });

  it('reads every area code in one page', async () => {
    const row = { id: 1, areaCode: '49', countryCode: 'DE', countryName: 'Germany' };
    server.answer(accountApi.phoneAreaCodes.path, {
      body: { code: 200, msg: 'hint_success', rows: [row], total: 1 },
    });
    await expect(fetchAreaCodes()).resolves.toEqual([row]);
    const request = received();
    expect(request).toMatchObject({ method: 'GET', path: accountApi.phoneAreaCodes.path });
    expect(Object.fromEntries(request.query)).toEqual({ pageNum: '1', pageSize: '100' });
  });

  it('changes the nickname and both passwords with form posts', async () => {
    server.answer(accountApi.modifyUserInfo.path, done({ ...user, nickName: 'Ada L.' }));
    server.answer(accountApi.updatePassword.path, { body: { code: 200, msg: 'hint_pwdChanged' } });
    server.answer(accountApi.updateWithdrawalPassword.path, done({ ...user, isSetWithPwd: 1 }));
    await expect(modifyUserInfo('Ada L.')).resolves.toMatchObject({ nickName: 'Ada L.' });
    await updateUserPwd('Secret123', 'Secret456');
    await updateUserWithPwd({ newPwd: '123456', userPwd: 'Secret456' });
    const [nick, password, withdrawal] = server.requests;
    expect(nick).toMatchObject({ method: 'POST', path: accountApi.modifyUserInfo.path });
    expect(form(nick!.body)).toEqual({ nickName: 'Ada L.' });
    expect(password).toMatchObject({ method: 'POST', path: accountApi.updatePassword.path });
    expect(form(password!.body)).toEqual({ oldPwd: 'Secret123', newPwd: 'Secret456' });
    expect(withdrawal).toMatchObject({
      method: 'POST',
      path: accountApi.updateWithdrawalPassword.path,
    });
    expect(form(withdrawal!.body)).toEqual({ newPwd: '123456', userPwd: 'Secret456' });
  });

  it('tells whether a withdrawal password is set', async () => {
    server.answer(accountApi.isSetWithPwd.path, {
      body: { code: 200, msg: 'hint_success', data: { isSetWithPwd: 1 }, isSetWithPwd: 1 },
    });
    await expect(isSetWithPwd()).resolves.toBe(true);
    server.answer(accountApi.isSetWithPwd.path, {
      body: { code: 200, msg: 'hint_success', data: { isSetWithPwd: 0 }, isSetWithPwd: 0 },
    });
    await expect(isSetWithPwd()).resolves.toBe(false);
    expect(server.requests.map((request) => request.method)).toEqual(['GET', 'GET']);
  });
});

describe('session calls', () => {
  it('reads the signed-in user again and keeps the fresh copy', async () => {
    server.answer(accountApi.userInfo.path, done({ ...user, nickName: 'fresh' }));
    await expect(refreshSignedInUser()).resolves.toMatchObject({ nickName: 'fresh' });
    expect(received()).toMatchObject({ method: 'GET', path: accountApi.userInfo.path });
    expect(server.requests[0]!.headers.authorization).toBe('Bearer secret-token');
    expect(getItem<UserInfo>(STORAGE_KEY.userInfo)?.nickName).toBe('fresh');
  });

  it('asks nothing when signed out', async () => {
    setItem(STORAGE_KEY.token, '');
    await expect(refreshSignedInUser()).resolves.toBeUndefined();
    expect(server.requests).toHaveLength(0);
  });

  it('signs out with a post and forgets the session, even when it had ended already', async () => {
    server.answer(accountApi.logout.path, { body: { code: 200, msg: 'hint_48' } });
    await signOut();
    expect(received()).toMatchObject({ method: 'POST', path: accountApi.logout.path });
    expect(getToken()).toBeUndefined();
  });
});
