/** Schemas of the launch calls (SEED-SPEC section 7). */
import { z } from 'zod';
import { CURRENCY_TYPE, LANGUAGE_KEYS, PAGE } from '../constants';
import { codeField, optionalInt, pageQuery, safeString } from './common';

export const textLangListQuery = pageQuery;

export const langMgrQuery = z.object({
  lang: z.preprocess(
    (value) => (value === '' || value === undefined ? 'en' : value),
    z.enum(LANGUAGE_KEYS as [string, ...string[]], { error: 'hint_langInvalid' }),
  ),
});
export type LangMgrQuery = z.infer<typeof langMgrQuery>;

export const appConfigQuery = z.object({
  pagePath: z.preprocess(
    (value) => (value === '' ? undefined : value),
    safeString(120)
      .regex(/^\/?[A-Za-z0-9_\-/]+$/, { error: 'hint_paramInvalid' })
      .transform((value) => (value.startsWith('/') ? value.slice(1) : value))
      .optional(),
  ),
});
export type AppConfigQuery = z.infer<typeof appConfigQuery>;

export const platformCurrencyQuery = z.object({
  currencyType: z.preprocess(
    (value) => (value === '' ? undefined : value),
    codeField([CURRENCY_TYPE.fiat, CURRENCY_TYPE.crypto]).optional(),
  ),
});
export type PlatformCurrencyQuery = z.infer<typeof platformCurrencyQuery>;

export const bankPropertyConfigQuery = z.object({
  configType: optionalInt(0, 9),
});
export type BankPropertyConfigQuery = z.infer<typeof bankPropertyConfigQuery>;

export const userBalanceQuery = z.object({
  currencyId: optionalInt(1, 1_000_000),
});
export type UserBalanceQuery = z.infer<typeof userBalanceQuery>;

/** Area codes come as one page by default: the picker shows them all. */
export const phoneAreaCodeQuery = z.object({
  pageNum: pageQuery.shape.pageNum,
  pageSize: z.preprocess(
    (value) => (value === '' || value === undefined ? PAGE.maxSize : value),
    pageQuery.shape.pageSize,
  ),
});
