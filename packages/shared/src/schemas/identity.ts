/**
 * Identity verification (`/api/userAuthRecord`, the platform's names): a user asks for a level
 * (0 basic: real name and document number; 1 advanced: the document's front, back and a photo
 * holding it), an operator approves or rejects it with a reason. The console reviews the requests
 * and sets which features need which level.
 */
import { z } from 'zod';
import { AUTH_LEVEL, AUTH_RECORD_STATUS, ID_TYPE, IDENTITY_FEATURES } from '../constants';
import { isDocumentNumber, isIdCard } from '../validators';
import {
  codeField,
  intField,
  optionalInt,
  optionalText,
  pageQuery,
  requestId,
  safeString,
  text,
} from './common';
import { proofImage } from './wallet';

const authLevel = codeField(Object.values(AUTH_LEVEL));
const idType = codeField(Object.values(ID_TYPE));

/** The sides of an advanced request's document images. */
export const AUTH_DOCUMENT_SIDES = ['front', 'back', 'hold'] as const;
export type AuthDocumentSide = (typeof AUTH_DOCUMENT_SIDES)[number];

export const authDetailQuery = z.object({ authLevel });

/**
 * A request for a level. The document number: for an identity card the spec's rule (15 digits,
 * 18 digits, or 17 digits and a digit or X); for a driving licence or passport 5 to 20 letters
 * and digits. The images (advanced only) are JPEG or PNG as data URLs or base64, each re-encoded
 * by the server.
 */
export const authApplyBody = z
  .object({
    authLevel,
    realName: text(64),
    idType,
    idNumber: safeString(32).transform((value) => value.trim().toUpperCase()),
    phone: optionalText(20),
    frontImage: proofImage.optional(),
    backImage: proofImage.optional(),
    holdImage: proofImage.optional(),
    requestId,
  })
  .superRefine((body, context) => {
    const valid =
      body.idType === ID_TYPE.idCard ? isIdCard(body.idNumber) : isDocumentNumber(body.idNumber);
    if (!valid)
      context.addIssue({ code: 'custom', path: ['idNumber'], message: 'hint_idNumberInvalid' });
    if (body.authLevel === AUTH_LEVEL.advanced)
      for (const side of ['frontImage', 'backImage', 'holdImage'] as const)
        if (!body[side])
          context.addIssue({ code: 'custom', path: [side], message: 'hint_paramRequired' });
  });
export type AuthApplyBody = z.output<typeof authApplyBody>;

export const authDocumentQuery = z.object({
  id: intField(1),
  side: z.enum(AUTH_DOCUMENT_SIDES, { error: 'hint_paramInvalid' }),
});

/** A verification request as its owner reads it (`status` −1 and nothing else when none). */
export const authRecord = z.object({
  id: z.number().int().nullable(),
  orderNo: z.string().nullable(),
  authLevel: z.number().int(),
  status: z
    .number()
    .int()
    .describe(
      `${AUTH_RECORD_STATUS.none} none, ${AUTH_RECORD_STATUS.reviewing} under review, ${AUTH_RECORD_STATUS.approved} approved, ${AUTH_RECORD_STATUS.rejected} rejected.`,
    ),
  realName: z.string().nullable(),
  idType: z.number().int().nullable(),
  idNumber: z.string().nullable().describe('Masked but for its first and last characters.'),
  phone: z.string().nullable(),
  rejectReason: z.string().nullable(),
  documents: z.array(z.enum(AUTH_DOCUMENT_SIDES)),
  createTime: z.string().nullable(),
  reviewTime: z.string().nullable(),
});
export type AuthRecord = z.output<typeof authRecord>;

/** What the user's verification allows: each feature's level, and the user's levels. */
export const identityRequirements = z.object({
  authLevel: z.number().int().describe('The highest level approved, −1 when none.'),
  requirements: z.array(
    z.object({
      feature: z.enum(IDENTITY_FEATURES),
      minLevel: z.number().int().describe('−1: no verification needed.'),
      met: z.boolean(),
    }),
  ),
});
export type IdentityRequirements = z.output<typeof identityRequirements>;

// ---------------------------------------------------------------- console

export const identityListQuery = pageQuery.extend({
  status: optionalInt(0, 2),
  userId: optionalInt(1, 2_147_483_647),
  authLevel: optionalInt(0, 1),
});
export type IdentityListQuery = z.output<typeof identityListQuery>;

/** A request as operators review it: the document number in full, the user named. */
export const reviewedAuthRecord = authRecord.extend({
  id: z.number().int(),
  orderNo: z.string(),
  userId: z.number().int(),
  userAccount: z.string(),
  idNumber: z.string(),
  createTime: z.string(),
});
export type ReviewedAuthRecord = z.output<typeof reviewedAuthRecord>;

export const identityRequirementSaveBody = z.object({
  feature: z.enum(IDENTITY_FEATURES, { error: 'hint_paramInvalid' }),
  minLevel: codeField([-1, 0, 1]),
});

export const identityRequirementRow = z.object({
  feature: z.enum(IDENTITY_FEATURES),
  minLevel: z.number().int(),
});
