/** Schemas of the account calls under /api/userInfo. */
import { z } from 'zod';
import { ACCOUNT_TYPE, REG_TYPE, VERIFICATION_CODE } from '../constants';
import {
  isAreaCode,
  isEmail,
  isPhoneForAreaCode,
  isVerificationCode,
  isWithdrawalPassword,
  passwordProblems,
} from '../validators';
import { codeField, exactText, optionalText, safeString, text } from './common';
import { optionalTwoFactorCode } from './security';

/** A login password checked against the spec's rules; the first broken rule is the message. */
export const password = exactText(64).superRefine((value, context) => {
  const [problem] = passwordProblems(value);
  if (problem) context.addIssue({ code: 'custom', message: problem });
});

const verificationCode = safeString(16).refine(
  (value) => isVerificationCode(value, VERIFICATION_CODE.length),
  { error: 'hint_codeFormat' },
);

const optionalVerificationCode = z.preprocess(
  (value) => (value === '' ? undefined : value),
  verificationCode.optional(),
);

const areaCode = safeString(8).refine(isAreaCode, { error: 'hint_areaCodeInvalid' });

export const inviteCode = safeString(16).regex(/^[A-Za-z0-9]{4,16}$/, {
  error: 'hint_inviteCodeInvalid',
});

export const regBody = z
  .object({
    regType: codeField([REG_TYPE.phone, REG_TYPE.email]),
    userAccount: text(254),
    areaCode: z.preprocess((value) => (value === '' ? undefined : value), areaCode.optional()),
    userPwd: password,
    inviteCode: z.preprocess((value) => (value === '' ? undefined : value), inviteCode.optional()),
    yzmCode: optionalVerificationCode,
  })
  .superRefine((body, context) => {
    if (body.regType === REG_TYPE.phone) {
      if (!body.areaCode) {
        context.addIssue({ code: 'custom', path: ['areaCode'], message: 'hint_paramRequired' });
      } else if (!isPhoneForAreaCode(body.areaCode, body.userAccount)) {
        context.addIssue({ code: 'custom', path: ['userAccount'], message: 'hint_phoneInvalid' });
      }
    } else if (!isEmail(body.userAccount)) {
      context.addIssue({ code: 'custom', path: ['userAccount'], message: 'hint_emailInvalid' });
    }
  });
export type RegBody = z.infer<typeof regBody>;

export const loginBody = z.object({
  userAccount: text(254),
  userPwd: exactText(64),
  areaCode: z.preprocess((value) => (value === '' ? undefined : value), areaCode.optional()),
});
export type LoginBody = z.infer<typeof loginBody>;

/** Letters of any script, digits, spaces and a few marks; no control or markup characters. */
export const nickName = text(32).refine((value) => /^[\p{L}\p{M}\p{N} ._\-']+$/u.test(value), {
  error: 'hint_nickNameInvalid',
});

export const modifyUserInfoBody = z.object({ nickName });
export type ModifyUserInfoBody = z.infer<typeof modifyUserInfoBody>;

export const updateUserPwdBody = z.object({
  oldPwd: exactText(64),
  newPwd: password,
  /** A current two-factor code (or a recovery code), asked once two-factor is on. */
  twoFactorCode: optionalTwoFactorCode,
});
export type UpdateUserPwdBody = z.infer<typeof updateUserPwdBody>;

const withdrawalPassword = safeString(16).refine(isWithdrawalPassword, {
  error: 'hint_withPwdFormat',
});

/**
 * Sets or changes the withdrawal password (6 digits). Changing needs the current one (`oldPwd`);
 * setting it the first time needs the login password (`userPwd`).
 */
export const updateUserWithPwdBody = z.object({
  newPwd: withdrawalPassword,
  oldPwd: optionalText(16),
  userPwd: z.preprocess((value) => (value === '' ? undefined : value), exactText(64).optional()),
  /** A current two-factor code (or a recovery code), asked once two-factor is on. */
  twoFactorCode: optionalTwoFactorCode,
});
export type UpdateUserWithPwdBody = z.infer<typeof updateUserWithPwdBody>;

export const VERIFICATION_PURPOSES = ['reg'] as const;
export type VerificationPurpose = (typeof VERIFICATION_PURPOSES)[number];
const purpose = z.preprocess(
  (value) => (value === '' || value === undefined ? 'reg' : value),
  z.enum(VERIFICATION_PURPOSES, { error: 'hint_paramInvalid' }),
);

export const sendEmailCodeBody = z.object({
  email: text(254).refine(isEmail, { error: 'hint_emailInvalid' }),
  purpose,
});
export type SendEmailCodeBody = z.infer<typeof sendEmailCodeBody>;

export const sendPhoneCodeBody = z
  .object({
    areaCode,
    phone: text(20),
    purpose,
  })
  .superRefine((body, context) => {
    if (!isPhoneForAreaCode(body.areaCode, body.phone)) {
      context.addIssue({ code: 'custom', path: ['phone'], message: 'hint_phoneInvalid' });
    }
  });
export type SendPhoneCodeBody = z.infer<typeof sendPhoneCodeBody>;

export const changeLoginModelQuery = z.object({
  accountType: z.preprocess(
    (value) => (value === '' ? undefined : value),
    codeField([ACCOUNT_TYPE.live, ACCOUNT_TYPE.demo]).optional(),
  ),
});
export type ChangeLoginModelQuery = z.infer<typeof changeLoginModelQuery>;

// ---------------------------------------------------------------- answers

/** What getUserInfo and login return about the signed-in user. */
export const userInfo = z.object({
  id: z.number().int(),
  userAccount: z.string().describe('The email, or the phone as `+<area code> <number>`.'),
  regType: z.number().int().describe('How the user registered: 0 phone, 1 email.'),
  areaCode: z.string().nullable(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  nickName: z.string(),
  avatar: z.string().nullable(),
  inviteCode: z.string().describe("The user's own code, to invite others."),
  accountType: z.number().int().describe('The book the session trades in: 0 live, 2 demo.'),
  isSetWithPwd: z.literal([0, 1]).describe('1 when a withdrawal password is set.'),
  authStatus: z
    .number()
    .int()
    .describe('The basic verification: 0 none, 1 under review, 2 verified, 3 rejected.'),
  authLevel: z.number().int().describe('The highest verified level: −1 none, 0 basic, 1 advanced.'),
  createTime: z.string(),
  lastLoginTime: z.string().nullable(),
  withdrawHoldUntil: z
    .string()
    .nullable()
    .describe('Until when withdrawals are held after a password change (ISO time), or null.'),
});
export type UserInfo = z.output<typeof userInfo>;

/** What registration and login answer: the session's token and the user. */
export const signedIn = z.object({
  token: z.string().describe('The session token, sent back as `Authorization: Bearer <token>`.'),
  userInfo,
});
export type SignedIn = z.output<typeof signedIn>;

/** A row of getPhoneAreaCodeList. */
export const phoneAreaCode = z.object({
  id: z.number().int(),
  areaCode: z.string(),
  countryCode: z.string().describe('ISO 3166-1 alpha-2.'),
  countryName: z.string().describe("The country's name in the request's language."),
});
export type PhoneAreaCode = z.output<typeof phoneAreaCode>;

/** Whether the user has a withdrawal password (isSetWithPwd). */
export const withPwdStatus = z.object({
  isSetWithPwd: z.literal([0, 1]).describe('1 when a withdrawal password is set.'),
});
export type WithPwdStatus = z.output<typeof withPwdStatus>;

/** The unread site messages of the user (notReadMessageCount). */
export const unreadMessageCount = z.object({
  notReadMessageCount: z.number().int().nonnegative(),
});
export type UnreadMessageCount = z.output<typeof unreadMessageCount>;
