/**
 * The calls of the account (/api/userInfo: registration, sign-in, sessions, profile, passwords,
 * verification codes, the live/demo switch) and of site messages (/api/siteMessage).
 */
import {
  changeLoginModelQuery,
  loginBody,
  modifyUserInfoBody,
  phoneAreaCode,
  regBody,
  sendEmailCodeBody,
  sendPhoneCodeBody,
  signedIn,
  unreadMessageCount,
  updateUserPwdBody,
  updateUserWithPwdBody,
  userInfo,
  withPwdStatus,
} from '../schemas/account';
import { phoneAreaCodeQuery } from '../schemas/launch';
import { TWO_FACTOR_CODE_HINTS, loginTwoFactorBody, twoFactorChallenge } from '../schemas/security';
import { avatarQuery, demoReset, modifyAvatarBody, resetDemoBody } from '../schemas/profile';
import { route } from './route';

/** Refusals of a code check (registration). */
const codeCheckHints = ['hint_codeRequired', 'hint_codeWrong', 'hint_codeTooManyAttempts'] as const;
/** Refusals of sending a verification code. */
const codeSendHints = ['hint_accountExists', 'hint_codeResendWait', 'hint_codeSendFailed'] as const;
/** Refusals of the signed-in user's login password check (counted towards a lock). */
const loginPasswordHints = ['hint_pwdWrong', 'hint_accountLocked'] as const;

export const accountApi = {
  register: route({
    method: 'POST',
    path: '/api/userInfo/reg',
    auth: 'public',
    summary:
      'Registers a user by phone or email (with a verification code when codes are sent) and signs them in.',
    body: regBody,
    data: signedIn,
    hints: [
      'hint_pwdCommon',
      'hint_regClosedPhone',
      'hint_regClosedEmail',
      'hint_inviteCodeRequired',
      'hint_inviteCodeInvalid',
      'hint_accountExists',
      ...codeCheckHints,
    ],
  }),
  login: route({
    method: 'POST',
    path: '/api/userInfo/login',
    auth: 'public',
    summary:
      'Signs in with an email, or a phone and its area code, and the login password; answers a new session, or, when the user has two-factor on, a challenge to send with a code to loginTwoFactor (no session yet).',
    body: loginBody,
    data: signedIn.or(twoFactorChallenge),
    hints: ['hint_loginFailed', 'hint_accountLocked', 'hint_accountDisabled'],
  }),
  loginTwoFactor: route({
    method: 'POST',
    path: '/api/userInfo/loginTwoFactor',
    auth: 'public',
    summary:
      "The second step of a sign-in with two-factor on: the login's challenge and a current code (or a recovery code); answers a new session.",
    body: loginTwoFactorBody,
    data: signedIn,
    hints: ['hint_twoFactorChallengeExpired', 'hint_accountDisabled', ...TWO_FACTOR_CODE_HINTS],
  }),
  logout: route({
    method: 'POST',
    path: '/api/userInfo/loginOut',
    auth: 'optional',
    summary: 'Ends the session of the token (hint_48 when there is none).',
  }),
  userInfo: route({
    method: 'GET',
    path: '/api/userInfo/getUserInfo',
    auth: 'user',
    key: 'read',
    summary: 'The signed-in user, in the book of the session.',
    data: userInfo,
  }),
  modifyUserInfo: route({
    method: 'POST',
    path: '/api/userInfo/modifyUserInfo',
    auth: 'user',
    summary: "Changes the user's nickname; answers the user.",
    body: modifyUserInfoBody,
    data: userInfo,
  }),
  updatePassword: route({
    method: 'POST',
    path: '/api/userInfo/updateUserPwd',
    auth: 'user',
    summary:
      'Changes the login password (msg hint_pwdChanged) and ends every session of the user, this one included.',
    body: updateUserPwdBody,
    hints: ['hint_pwdCommon', ...loginPasswordHints, 'hint_pwdSameAsOld', ...TWO_FACTOR_CODE_HINTS],
  }),
  updateWithdrawalPassword: route({
    method: 'POST',
    path: '/api/userInfo/updateUserWithPwd',
    auth: 'user',
    summary:
      'Sets the withdrawal password (confirmed with `userPwd`, the login password) or changes it (confirmed with `oldPwd`; withdrawals are then held 24 hours); answers the user.',
    body: updateUserWithPwdBody,
    data: userInfo,
    hints: [
      'hint_oldWithPwdRequired',
      'hint_withPwdWrong',
      'hint_withPwdLocked',
      'hint_pwdSameAsOld',
      'hint_loginPwdRequired',
      ...loginPasswordHints,
      ...TWO_FACTOR_CODE_HINTS,
    ],
  }),
  isSetWithPwd: route({
    method: 'GET',
    path: '/api/userInfo/isSetWithPwd',
    auth: 'user',
    summary: 'Whether the user has a withdrawal password.',
    data: withPwdStatus,
    extra: withPwdStatus,
  }),
  sendEmailCode: route({
    method: 'POST',
    path: '/api/userInfo/sendEmailVerificationCode',
    auth: 'public',
    summary: 'Sends a registration code to an email address (msg hint_codeSent).',
    body: sendEmailCodeBody,
    hints: codeSendHints,
  }),
  sendPhoneCode: route({
    method: 'POST',
    path: '/api/userInfo/sendPhoneVerificationCode',
    auth: 'public',
    summary: 'Sends a registration code to a phone number (msg hint_codeSent).',
    body: sendPhoneCodeBody,
    hints: codeSendHints,
  }),
  phoneAreaCodes: route({
    method: 'GET',
    path: '/api/userInfo/getPhoneAreaCodeList',
    auth: 'public',
    summary: "The phone area codes offered at registration and sign-in, with the country's name.",
    query: phoneAreaCodeQuery,
    rows: phoneAreaCode,
  }),
  changeLoginModel: route({
    // GET names the account type in the query, POST in its body (the same fields).
    method: ['GET', 'POST'],
    path: '/api/userInfo/changeLoginModel',
    auth: 'user',
    summary:
      'Switches the session to the live (0) or demo (2) book, or to the other one when `accountType` is left out; answers the user.',
    query: changeLoginModelQuery,
    data: userInfo,
    hints: ['hint_demoDisabled'],
  }),
  modifyAvatar: route({
    method: 'POST',
    path: '/api/userInfo/modifyAvatar',
    auth: 'user',
    summary:
      "Sets the user's avatar from a JPEG or PNG (base64 or a data URL), re-encoded by the server as a square JPEG of at most 512 pixels without metadata; answers the user, whose `avatar` is the new image's URL.",
    body: modifyAvatarBody,
    encoding: 'json',
    data: userInfo,
    hints: ['hint_avatarFormat', 'hint_avatarTooLarge', 'hint_avatarDimensions'],
  }),
  avatar: route({
    method: 'GET',
    path: '/api/userInfo/avatar',
    auth: 'public',
    summary:
      "A user's avatar image, to anyone with its URL (`v` is the image's SHA-256): cached for good, since another image is another URL.",
    query: avatarQuery,
    file: true,
    contentType: 'image/jpeg',
  }),
  resetDemo: route({
    method: 'POST',
    path: '/api/userInfo/resetDemo',
    auth: 'user',
    summary:
      'Resets the demo account to 100,000 USDT: resting orders cancelled, positions and holdings closed at the feed price, history kept; once a day at most. The same `requestId` answers the first reset again.',
    body: resetDemoBody,
    data: demoReset,
    hints: [
      'hint_demoResetTooSoon',
      'hint_demoDisabled',
      'hint_demoResetTradesOpen',
      'hint_marketClosed',
    ],
  }),
  unreadMessageCount: route({
    method: 'GET',
    path: '/api/siteMessage/notReadMessageCount',
    auth: 'user',
    summary: 'How many site messages the user has not read.',
    data: unreadMessageCount,
    extra: unreadMessageCount,
  }),
};
