/**
 * The checks of the verification forms, before anything is sent: the same rules as the server's
 * schema (`authApplyBody` in @bourse/shared), each problem a translation key naming its field.
 * And the way back: which field a refusal of the server belongs under.
 */
import {
  AUTH_DOCUMENT_SIDES,
  hasForbiddenCharacters,
  ID_TYPE,
  isDocumentNumber,
  isIdCard,
  TEXT_INVALID_CHARACTERS,
  type AuthDocumentSide,
} from '@bourse/shared';

/** The schema's bounds (`text(64)`, `optionalText(20)`). */
export const REAL_NAME_MAX = 64;
export const PHONE_MAX = 20;

export interface BasicValues {
  realName: string;
  idType: number;
  idNumber: string;
  phone: string;
}

/** The image fields of an advanced request, by side. */
export const IMAGE_FIELD = {
  front: 'frontImage',
  back: 'backImage',
  hold: 'holdImage',
} as const satisfies Record<AuthDocumentSide, string>;
export type ImageField = (typeof IMAGE_FIELD)[AuthDocumentSide];

export type FormField = keyof BasicValues | ImageField;

/** A problem as the server words it: a message key and its parameters (field names first). */
export interface Problem {
  key: string;
  params: readonly unknown[];
}

/** The document number as it is sent and checked: trimmed, in capitals (as the server has it). */
export function cleanIdNumber(value: string): string {
  return value.trim().toUpperCase();
}

/** An identity card's number by the spec's rule; a driving licence's or passport's 5–20 letters and digits. */
export function isValidIdNumber(idType: number, value: string): boolean {
  const number = cleanIdNumber(value);
  return idType === ID_TYPE.idCard ? isIdCard(number) : isDocumentNumber(number);
}

/** The longest number a document type allows, for the input's own limit. */
export function idNumberMaxLength(idType: number): number {
  return idType === ID_TYPE.idCard ? 18 : 20;
}

function textProblem(field: string, value: string, max: number, required: boolean) {
  const text = value.trim();
  if (!text) return required ? { key: 'hint_paramRequired', params: [field] } : undefined;
  if (text.length > max) return { key: 'hint_paramTooLong', params: [field, max] };
  if (hasForbiddenCharacters(text)) return { key: TEXT_INVALID_CHARACTERS, params: [field] };
  return undefined;
}

/** What is wrong with the name, document and phone of a request (basic and advanced alike). */
export function basicProblems(values: BasicValues): Partial<Record<keyof BasicValues, Problem>> {
  const problems: Partial<Record<keyof BasicValues, Problem>> = {};
  const realName = textProblem('realName', values.realName, REAL_NAME_MAX, true);
  if (realName) problems.realName = realName;
  if (!(Object.values(ID_TYPE) as number[]).includes(values.idType))
    problems.idType = { key: 'hint_paramRequired', params: ['idType'] };
  if (!cleanIdNumber(values.idNumber))
    problems.idNumber = { key: 'hint_paramRequired', params: ['idNumber'] };
  else if (!isValidIdNumber(values.idType, values.idNumber))
    problems.idNumber = { key: 'hint_idNumberInvalid', params: ['idNumber'] };
  const phone = textProblem('phone', values.phone, PHONE_MAX, false);
  if (phone) problems.phone = phone;
  return problems;
}

/** The images an advanced request still lacks. */
export function imageProblems(
  images: Partial<Record<AuthDocumentSide, string>>,
): Partial<Record<ImageField, Problem>> {
  const problems: Partial<Record<ImageField, Problem>> = {};
  for (const side of AUTH_DOCUMENT_SIDES)
    if (!images[side])
      problems[IMAGE_FIELD[side]] = { key: 'hint_paramRequired', params: [IMAGE_FIELD[side]] };
  return problems;
}

const FIELDS: readonly string[] = [
  'realName',
  'idType',
  'idNumber',
  'phone',
  ...Object.values(IMAGE_FIELD),
];

/** Refusals that are about one field whatever their parameters say. */
const FIELD_OF_HINT: Record<string, FormField> = {
  hint_idNumberInvalid: 'idNumber',
  hint_authNameMismatch: 'realName',
};

/**
 * The field a refusal of the server belongs under: a message of its own (the number, the name),
 * or a validation message naming the field first; undefined when it is about the whole request.
 */
export function fieldOfRefusal(msg: string, params: readonly unknown[]): FormField | undefined {
  const own = FIELD_OF_HINT[msg];
  if (own) return own;
  const [first] = params;
  return typeof first === 'string' && FIELDS.includes(first) ? (first as FormField) : undefined;
}

/** An operator's reason as the user reads it: a message key translated, free text as written. */
export function reasonText(
  reason: string,
  exists: (key: string) => boolean,
  translate: (key: string) => string,
): string {
  const key = reason.trim();
  return /^hint_[A-Za-z0-9_]+$/.test(key) && exists(key) ? translate(key) : reason;
}
