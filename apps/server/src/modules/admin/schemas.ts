/**
 * Input schemas of the operator API (/admin-api). Like the /api calls, bodies may be form-encoded
 * (every value text, lists as repeated fields or comma-separated) or JSON.
 */
import { z } from 'zod';
import { intField, optionalInt, pageQuery, safeString, text } from '@bourse/shared';
import { OPERATOR_ROLES } from './roles';

const emptyToUndefined = (value: unknown) => (value === '' || value === null ? undefined : value);

/** Operator passwords: at least 12 characters, taken exactly as sent. */
export const OPERATOR_PASSWORD_MIN = 12;
const OPERATOR_PASSWORD_MAX = 128;

const id = intField(1, 2_147_483_647);

const username = safeString(64)
  .transform((value) => value.trim().toLowerCase())
  .pipe(z.string().regex(/^[a-z0-9][a-z0-9._-]{2,31}$/, { error: 'hint_operatorNameInvalid' }));

/** Taken exactly as sent, spaces included; like every text, no control characters. */
const newPassword = safeString(OPERATOR_PASSWORD_MAX).min(OPERATOR_PASSWORD_MIN);

/** A list of roles: an array, a repeated form field, or `admin,finance`. */
const roles = z.preprocess(
  (value) =>
    typeof value === 'string'
      ? value
          .split(',')
          .map((role) => role.trim())
          .filter(Boolean)
      : value,
  z
    .array(z.enum(OPERATOR_ROLES, { error: 'hint_operatorRoleInvalid' }))
    .min(1)
    .max(OPERATOR_ROLES.length)
    .transform((list) => OPERATOR_ROLES.filter((role) => list.includes(role))),
);

const flag = z.preprocess((value) => {
  if (value === '' || value === null) return undefined;
  if (value === 'true' || value === '1' || value === 1) return true;
  if (value === 'false' || value === '0' || value === 0) return false;
  return value;
}, z.boolean().optional());

export const adminLoginBody = z.object({
  username: safeString(64).min(1),
  password: safeString(OPERATOR_PASSWORD_MAX).min(1),
});

export const changeOwnPasswordBody = z.object({
  oldPassword: safeString(OPERATOR_PASSWORD_MAX).min(1),
  newPassword,
});

export const operatorCreateBody = z.object({ username, password: newPassword, roles });

export const operatorUpdateBody = z.object({
  id,
  roles: z.preprocess(emptyToUndefined, roles.optional()),
  disabled: flag,
});

/** Without a password, a random one is made and answered once. */
export const operatorResetPasswordBody = z.object({
  id,
  password: z.preprocess(emptyToUndefined, newPassword.optional()),
});

export const operatorListQuery = pageQuery;

export const reviewListQuery = pageQuery.extend({
  status: optionalInt(0, 9),
  userId: optionalInt(1, 2_147_483_647),
});

export const reviewIdQuery = z.object({ id });
export const reviewIdBody = z.object({ id });

/** Disable (true) or enable again (false) a user's account. */
export const userStatusBody = z.object({
  id,
  disabled: flag.refine((value) => value !== undefined, { error: 'hint_paramRequired' }),
});
/** The reason is shown to the user; multi-line, as an operator may explain in a few lines. */
export const reviewRejectBody = z.object({ id, reason: text(500, 1, 'multiLine') });

export const auditQuery = pageQuery.extend({
  operatorId: optionalInt(1, 2_147_483_647),
  action: z.preprocess(emptyToUndefined, text(64).optional()),
  targetType: z.preprocess(emptyToUndefined, text(32).optional()),
  targetId: z.preprocess(emptyToUndefined, text(64).optional()),
});
