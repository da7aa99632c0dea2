/**
 * The security centre's calls (/api/userSecurity). Two-factor authentication (TOTP, RFC 6238):
 * setting it up, turning it on and off, its status, and the second step of a sign-in. The user's
 * sessions and devices, their login history and their anti-phishing code (below); each list is a
 * page of at most PAGE.maxSize rows.
 */
import { z } from 'zod';
import { exactText, intField, optionalText, pageQuery, safeString, text } from './common';

/** How a two-factor code is typed: 6 digits from the app, or a recovery code (`abcde-fghij`). */
export const TWO_FACTOR = {
  /** Digits of an authenticator app's code. */
  digits: 6,
  /** Seconds each code stands for. */
  periodSeconds: 30,
  /** Recovery codes given when two-factor is turned on, each usable once. */
  recoveryCodes: 10,
  /** Characters of a recovery code, without its hyphen. */
  recoveryLength: 10,
  /** Minutes a sign-in waits for its second factor. */
  challengeMinutes: 5,
} as const;

/** Refusals of a two-factor code (wrong ones count towards a lock), for the route table. */
export const TWO_FACTOR_CODE_HINTS = [
  'hint_twoFactorRequired',
  'hint_twoFactorWrong',
  'hint_twoFactorLocked',
] as const;

/** A code of the authenticator app or a recovery code, as typed (spaces and hyphens allowed). */
export const twoFactorCode = text(32);
/** The same where it is asked only once two-factor is on. */
export const optionalTwoFactorCode = optionalText(32);

export const twoFactorSetupBody = z.object({
  userPwd: exactText(64).describe('The login password.'),
});
export type TwoFactorSetupBody = z.infer<typeof twoFactorSetupBody>;

export const twoFactorSetup = z.object({
  secret: z.string().describe('The shared secret in base32, for typing into the app.'),
  uri: z.string().describe('The otpauth:// URI, for the QR code the app scans.'),
});
export type TwoFactorSetup = z.output<typeof twoFactorSetup>;

export const twoFactorEnableBody = z.object({
  code: twoFactorCode.describe('A current code of the authenticator app (6 digits).'),
});
export type TwoFactorEnableBody = z.infer<typeof twoFactorEnableBody>;

export const twoFactorRecoveryCodes = z.object({
  recoveryCodes: z
    .array(z.string())
    .describe('10 recovery codes, each usable once in place of a code; shown this once.'),
});
export type TwoFactorRecoveryCodes = z.output<typeof twoFactorRecoveryCodes>;

export const twoFactorDisableBody = z.object({
  code: twoFactorCode.describe('A current code of the authenticator app, or a recovery code.'),
});
export type TwoFactorDisableBody = z.infer<typeof twoFactorDisableBody>;

export const twoFactorStatus = z.object({
  enabled: z.literal([0, 1]).describe('1 when sign-in and security changes ask for a code.'),
  pending: z.literal([0, 1]).describe('1 when set up but not yet confirmed with a code.'),
  recoveryCodesLeft: z.number().int().describe('Recovery codes not used yet (0 when off).'),
});
export type TwoFactorStatus = z.output<typeof twoFactorStatus>;

/** The second step of a sign-in: the challenge the login answered and a code. */
export const loginTwoFactorBody = z.object({
  challenge: exactText(64),
  code: twoFactorCode,
});
export type LoginTwoFactorBody = z.infer<typeof loginTwoFactorBody>;

/** What the login answers in place of a session when the user has two-factor on. */
export const twoFactorChallenge = z.object({
  twoFactorRequired: z.literal(true),
  challenge: z
    .string()
    .describe('Sent back with a code to /api/userInfo/loginTwoFactor, within 5 minutes.'),
});
export type TwoFactorChallenge = z.output<typeof twoFactorChallenge>;

// ---------------------------------------------------------------- sessions, login history, anti-phishing

/** The results a sign-in attempt is recorded with (the login history). */
export const LOGIN_RESULTS = [
  'success',
  'wrongPassword',
  'locked',
  'disabled',
  'twoFactorFailed',
] as const;
export type LoginResult = (typeof LOGIN_RESULTS)[number];

/** How long the login history keeps an attempt, and how many it keeps per account at most. */
export const LOGIN_HISTORY = { keepDays: 90, maxPerAccount: 1000 } as const;

/** The anti-phishing code's rule: 4–20 letters, digits and spaces (no space at either end). */
export const ANTI_PHISHING_CODE = { minLength: 4, maxLength: 20 } as const;
const ANTI_PHISHING_PATTERN = /^[\p{L}\p{N}](?:[\p{L}\p{N} ]*[\p{L}\p{N}])?$/u;

/** Whether a phrase is a valid anti-phishing code. */
export function isAntiPhishingCode(value: string): boolean {
  return (
    value.length >= ANTI_PHISHING_CODE.minLength &&
    value.length <= ANTI_PHISHING_CODE.maxLength &&
    ANTI_PHISHING_PATTERN.test(value)
  );
}

/** A device as read from a user agent: browser and system with their major version. */
export const deviceInfo = z.object({
  browser: z.string().nullable().describe('The browser and its major version, e.g. "Chrome 131".'),
  os: z.string().nullable().describe('The operating system and its major version, e.g. "iOS 17".'),
  type: z.enum(['mobile', 'tablet', 'desktop', 'tv', 'bot', 'unknown']),
});
export type DeviceInfo = z.output<typeof deviceInfo>;

export const securitySessionsQuery = pageQuery;

/** One of the user's live sessions. */
export const securitySession = z.object({
  id: z.number().int(),
  device: deviceInfo,
  userAgent: z.string().nullable(),
  ip: z.string().nullable(),
  createTime: z.string().describe('When it signed in.'),
  lastSeenTime: z.string().describe('Its last call (moved forward at most once a minute).'),
  current: z.boolean().describe('The session making this call.'),
});
export type SecuritySession = z.output<typeof securitySession>;

export const endSessionBody = z.object({ id: intField(1, Number.MAX_SAFE_INTEGER) });
export type EndSessionBody = z.output<typeof endSessionBody>;

export const sessionsEnded = z.object({
  sessionsEnded: z.number().int().describe('Sessions ended (0: there was no other).'),
});

export const loginHistoryQuery = pageQuery;

/** One sign-in attempt of the account. */
export const loginAttempt = z.object({
  id: z.number().int(),
  time: z.string(),
  result: z.enum(LOGIN_RESULTS),
  ip: z.string().nullable(),
  device: deviceInfo,
  userAgent: z.string().nullable(),
});
export type LoginAttempt = z.output<typeof loginAttempt>;

/** The user's anti-phishing code (only they see it; null: none set). */
export const antiPhishingState = z.object({
  code: z.string().nullable(),
  updateTime: z.string().nullable(),
});
export type AntiPhishingState = z.output<typeof antiPhishingState>;

/**
 * Sets or changes the anti-phishing code, confirmed with the login password (`userPwd`) and, once
 * two-factor is on, a code (`twoFactorCode`). Spaces at either end are dropped; spaces inside are
 * kept as typed.
 */
export const setAntiPhishingBody = z.object({
  code: safeString(ANTI_PHISHING_CODE.maxLength * 4)
    .transform((value) => value.trim())
    .refine(isAntiPhishingCode, { error: 'hint_antiPhishingInvalid' }),
  userPwd: exactText(64),
  twoFactorCode: optionalTwoFactorCode,
});
export type SetAntiPhishingBody = z.output<typeof setAntiPhishingBody>;
