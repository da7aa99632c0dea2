/**
 * The user's avatar, the demo account's reset and the withdrawal address whitelist (issue 19):
 * their inputs and answers.
 */
import { z } from 'zod';
import { AVATAR } from '../constants';
import { exactText, intField, requestId, safeString } from './common';
import { optionalTwoFactorCode } from './security';

// ---------------------------------------------------------------- avatar

/** The cropped avatar as a data URL (`data:image/jpeg;base64,…`) or bare base64. */
export const modifyAvatarBody = z.object({
  image: safeString(Math.ceil((AVATAR.maxBytes * 4) / 3) + 64).min(1),
});
export type ModifyAvatarBody = z.infer<typeof modifyAvatarBody>;

/** Whose avatar, and which one (its hash): a URL names one image, so it can be cached for good. */
export const avatarQuery = z.object({
  id: intField(1, 2_147_483_647),
  v: safeString(64).regex(/^[0-9a-f]{64}$/, { error: 'hint_paramInvalid' }),
});
export type AvatarQuery = z.infer<typeof avatarQuery>;

// ---------------------------------------------------------------- demo reset

export const resetDemoBody = z.object({ requestId });
export type ResetDemoBody = z.infer<typeof resetDemoBody>;

export const demoReset = z.object({
  resetTime: z.string().describe('When the demo account was reset (ISO time).'),
  balance: z.string().describe('The available USDT of the demo account after the reset.'),
  positionsClosed: z.number().int().describe('Positions and holdings closed at market price.'),
  ordersCancelled: z.number().int().describe('Resting orders cancelled.'),
  nextResetTime: z.string().describe('The earliest time of the next reset (ISO time).'),
});
export type DemoReset = z.output<typeof demoReset>;

// ---------------------------------------------------------------- withdrawal whitelist

/**
 * Turns the whitelist on (`enabled` 1, at once) or off (0: confirmed with the login password,
 * and withdrawals are then held 24 hours).
 */
export const setWithdrawWhitelistBody = z.object({
  enabled: z.preprocess(
    (value) => (typeof value === 'string' && /^[01]$/.test(value) ? Number(value) : value),
    z.literal([0, 1], { error: 'hint_paramInvalid' }),
  ),
  userPwd: z.preprocess((value) => (value === '' ? undefined : value), exactText(64).optional()),
  /** Turning it off: a current two-factor code (or a recovery code), once two-factor is on. */
  twoFactorCode: optionalTwoFactorCode,
});
export type SetWithdrawWhitelistBody = z.infer<typeof setWithdrawWhitelistBody>;

export const withdrawWhitelist = z.object({
  enabled: z.literal([0, 1]).describe('1: withdrawals go only to whitelisted cards and addresses.'),
  delayHours: z
    .number()
    .int()
    .describe(
      "How long after it is saved (or changed) a card or address may be withdrawn to; turning the whitelist off holds withdrawals as long (the user info's `withdrawHoldUntil`).",
    ),
});
export type WithdrawWhitelist = z.output<typeof withdrawWhitelist>;
