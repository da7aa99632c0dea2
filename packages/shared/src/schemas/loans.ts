/**
 * Loans (issue 23): products an operator publishes (amount range, term, interest-free days, one
 * daily rate and one overdue daily rate, how interest is settled, open loans per user, the
 * identity level needed, and the fields an application asks), applications reviewed by an
 * operator, disbursed through the ledger, interest accrued day by day, repayments (interest first,
 * then principal). A loan's terms are copied from its product when the user applies: a product's
 * change never touches a loan already asked for. Figures: packages/shared/src/loans.ts.
 */
import { z } from 'zod';
import {
  LOAN_FIELD_TYPES,
  LOAN_LIMITS,
  LOAN_PRODUCT_STATUS,
  LOAN_SETTLEMENT,
  LOAN_STATUS,
} from '../loans';
import { gt, isDecimalString } from '../money';
import {
  decimalAmount,
  intField,
  optionalFlag,
  optionalInt,
  pageQuery,
  requestId,
  safeString,
  text,
} from './common';
import { languageTexts } from './operators';
import { proofImage } from './wallet';

/** A field's key: how its answer is named in an application (letters, digits, underscore). */
const FIELD_KEY = /^[A-Za-z][A-Za-z0-9_]{0,31}$/;
export const loanFieldKey = safeString(32).regex(FIELD_KEY, { error: 'hint_paramInvalid' });

const codeOf = <T extends Record<string, number>>(codes: T) =>
  intField().refine((value) => Object.values(codes).includes(value), {
    error: 'hint_paramInvalid',
  });

// ---------------------------------------------------------------- the app

export const loanFieldOption = z.object({ value: z.string(), label: z.string() });

export const loanField = z.object({
  key: z.string(),
  type: z.enum(LOAN_FIELD_TYPES),
  label: z.string().describe("In the reader's language (English when it has none)."),
  required: z.boolean(),
  options: z.array(loanFieldOption).describe('The choices of a `choice` field (else empty).'),
});
export type LoanField = z.output<typeof loanField>;

export const loanProduct = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  currencyId: z.number().int(),
  currencyName: z.string(),
  scale: z.number().int(),
  minAmount: z.string(),
  maxAmount: z.string(),
  termDays: z.number().int(),
  interestFreeDays: z.number().int(),
  dailyRate: z.string().describe('Interest per day of the term, 0.0005 for 0.05 %.'),
  overdueDailyRate: z.string().describe('Interest per day past the due date.'),
  settlement: z
    .number()
    .int()
    .describe('1 interest taken daily from the available balance, 2 paid at repayment.'),
  maxOpenLoans: z.number().int().describe('Loans of it one user may have under review or open.'),
  minIdentityLevel: z
    .number()
    .int()
    .describe('The verified identity level it needs: -1 none, 0 basic, 1 advanced.'),
  status: z.number().int().describe('1 open to applications, 0 closed.'),
  fields: z.array(loanField),
  openLoans: z
    .number()
    .int()
    .describe("The signed-in user's loans of it under review or open (0 when signed out)."),
  identityMet: z
    .boolean()
    .nullable()
    .describe('The signed-in user has the identity level it needs (null when signed out).'),
});
export type LoanProduct = z.output<typeof loanProduct>;

export const loanProductQuery = pageQuery.extend({ currencyId: optionalInt(1) });

/**
 * An application: the product, the amount asked and the answers to the product's fields by key
 * (text, a number as a decimal string, a choice's value, an image as a data URL or base64 of a JPEG
 * or PNG, re-encoded before it is stored). Sent as JSON.
 */
export const loanApplyBody = z.object({
  loanProductId: intField(1),
  amount: decimalAmount(),
  requestId,
  fields: z
    .record(loanFieldKey, proofImage)
    .refine((fields) => Object.keys(fields).length <= LOAN_LIMITS.fieldsMax, {
      error: 'hint_paramInvalid',
    })
    .optional(),
});
export type LoanApplyBody = z.output<typeof loanApplyBody>;

export const loanOrder = z.object({
  id: z.number().int(),
  orderNo: z.string(),
  productId: z.number().int(),
  productName: z.string(),
  currencyId: z.number().int(),
  currencyName: z.string(),
  scale: z.number().int(),
  amount: z.string().describe('The amount asked.'),
  approvedAmount: z.string().nullable().describe('The amount lent (at most the amount asked).'),
  termDays: z.number().int(),
  interestFreeDays: z.number().int(),
  dailyRate: z.string(),
  overdueDailyRate: z.string(),
  settlement: z.number().int(),
  status: z.number().int().describe('0 under review, 1 active, 2 repaid, 3 rejected.'),
  overdue: z.boolean().describe('Active and past its due date.'),
  overdueDays: z.number().int(),
  startDate: z.string().nullable().describe('The UTC date it was disbursed (its day 1).'),
  dueDate: z
    .string()
    .nullable()
    .describe('Its first date plus the term: repaid by the end of it, no overdue day is charged.'),
  daysUsed: z.number().int().describe('Its days that ended while it was open (the days charged).'),
  principal: z.string().describe('Principal outstanding.'),
  interestDue: z
    .string()
    .describe('Interest due now: accrued and unpaid, with the ended days not yet accrued.'),
  totalDue: z.string().describe('What repaying all of it costs now.'),
  interestAccrued: z.string().describe('Interest accrued so far (paid or not).'),
  interestPaid: z.string(),
  principalRepaid: z.string(),
  rejectReason: z.string().nullable(),
  createTime: z.string(),
  reviewTime: z.string().nullable(),
  repaidTime: z.string().nullable(),
});
export type LoanOrder = z.output<typeof loanOrder>;

export const loanOrderQuery = pageQuery.extend({
  status: optionalInt(0, 3).describe(
    '0 under review, 1 active, 2 repaid, 3 rejected; absent: all.',
  ),
});

export const loanOrderIdQuery = z.object({ id: intField(1) });

export const loanPanelCurrency = z.object({
  currencyId: z.number().int(),
  currencyName: z.string(),
  scale: z.number().int(),
  principal: z.string().describe('Principal outstanding of the active loans.'),
  interestDue: z.string().describe('Interest due now on them.'),
  totalDue: z.string(),
});

export const loanPanel = z.object({
  currencies: z.array(loanPanelCurrency),
  activeCount: z.number().int(),
  overdueCount: z.number().int(),
  reviewingCount: z.number().int(),
  nextDueDate: z.string().nullable().describe('The earliest due date of an active loan.'),
  nextDueLoanId: z.number().int().nullable(),
});
export type LoanPanel = z.output<typeof loanPanel>;

export const loanInterestQuery = pageQuery.extend({ loanOrderId: intField(1) });

export const loanInterestRecord = z.object({
  id: z.number().int(),
  loanOrderId: z.number().int(),
  day: z.string().describe('The UTC date the interest is for.'),
  dayNumber: z.number().int().describe('Its day of the loan, from 1 (the date disbursed).'),
  kind: z.enum(['free', 'normal', 'overdue']),
  principal: z.string().describe('The principal outstanding at the end of that day.'),
  rate: z.string(),
  amount: z.string(),
  settled: z
    .string()
    .describe('Taken from the available balance as it was accrued (daily settlement).'),
  currencyName: z.string(),
  createTime: z.string(),
});
export type LoanInterestRecord = z.output<typeof loanInterestRecord>;

/**
 * A repayment from the available balance: interest due first, then principal. `interestDue` is
 * the interest the screen showed: when given and no longer what is due (a day ended meanwhile),
 * the repayment is refused (`hint_loanDueChanged`) so the figures confirmed are those paid.
 */
export const loanRepayBody = z.object({
  loanOrderId: intField(1),
  amount: decimalAmount(),
  interestDue: z.preprocess(
    (value) => (value === '' || value === null ? undefined : value),
    decimalAmount({ sign: 'nonNegative' }).optional(),
  ),
  requestId,
});
export type LoanRepayBody = z.output<typeof loanRepayBody>;

export const loanRepayment = z.object({
  id: z.number().int(),
  orderNo: z.string(),
  loanOrderId: z.number().int(),
  loanOrderNo: z.string(),
  currencyId: z.number().int(),
  currencyName: z.string(),
  amount: z.string(),
  interest: z.string().describe('Of the amount, what paid interest.'),
  principal: z.string().describe('Of the amount, what paid principal.'),
  interestLeft: z.string(),
  principalLeft: z.string(),
  repaid: z.boolean().describe('It repaid the loan in full.'),
  entryId: z.number().int(),
  createTime: z.string(),
});
export type LoanRepayment = z.output<typeof loanRepayment>;

export const loanRepaymentQuery = pageQuery.extend({ loanOrderId: optionalInt(1) });

// ---------------------------------------------------------------- the console

export const consoleLoanField = z.object({
  key: z.string(),
  type: z.enum(LOAN_FIELD_TYPES),
  label: z.record(z.string(), z.string()),
  required: z.boolean(),
  options: z.array(z.object({ value: z.string(), label: z.record(z.string(), z.string()) })),
});
export type ConsoleLoanField = z.output<typeof consoleLoanField>;

export const consoleLoanProduct = z.object({
  id: z.number().int(),
  name: z.record(z.string(), z.string()),
  description: z.record(z.string(), z.string()),
  currencyId: z.number().int(),
  currencyName: z.string(),
  minAmount: z.string(),
  maxAmount: z.string(),
  termDays: z.number().int(),
  interestFreeDays: z.number().int(),
  dailyRate: z.string(),
  overdueDailyRate: z.string(),
  settlement: z.number().int(),
  maxOpenLoans: z.number().int(),
  minIdentityLevel: z.number().int(),
  status: z.number().int(),
  fields: z.array(consoleLoanField),
  openLoans: z.number().int().describe('Its loans under review or active.'),
  createTime: z.string(),
  updateTime: z.string(),
});
export type ConsoleLoanProduct = z.output<typeof consoleLoanProduct>;

const dailyRate = decimalAmount({
  sign: 'nonNegative',
  maxScale: 8,
  max: LOAN_LIMITS.dailyRateMax,
});

const fieldInput = z.object({
  key: loanFieldKey,
  type: z.enum(LOAN_FIELD_TYPES, { error: 'hint_paramInvalid' }),
  label: languageTexts(LOAN_LIMITS.fieldLabelMax),
  required: z.boolean().default(false),
  options: z
    .array(
      z.object({
        value: text(64),
        label: languageTexts(LOAN_LIMITS.fieldLabelMax),
      }),
    )
    .max(LOAN_LIMITS.choicesMax)
    .default([]),
});
export type LoanFieldInput = z.output<typeof fieldInput>;

export const loanProductSaveBody = z
  .object({
    id: optionalInt(1).describe('The product to change; absent: a new one (open).'),
    name: languageTexts(LOAN_LIMITS.nameMax),
    description: languageTexts(LOAN_LIMITS.descriptionMax, 'multiLine'),
    currencyId: intField(1),
    minAmount: decimalAmount(),
    maxAmount: decimalAmount(),
    termDays: intField(1, LOAN_LIMITS.termDaysMax),
    interestFreeDays: intField(0, LOAN_LIMITS.termDaysMax),
    dailyRate,
    overdueDailyRate: dailyRate,
    settlement: codeOf(LOAN_SETTLEMENT),
    maxOpenLoans: intField(1, LOAN_LIMITS.maxOpenLoansMax),
    minIdentityLevel: intField(-1, 1),
    fields: z.array(fieldInput).max(LOAN_LIMITS.fieldsMax).default([]),
  })
  .superRefine((body, context) => {
    if (!body.name)
      context.addIssue({ code: 'custom', path: ['name'], message: 'hint_langEnglishRequired' });
    // Compared only when both are amounts: a refused one is named on its own field.
    if (
      isDecimalString(body.minAmount) &&
      isDecimalString(body.maxAmount) &&
      gt(body.minAmount, body.maxAmount)
    )
      context.addIssue({ code: 'custom', path: ['maxAmount'], message: 'hint_loanRangeInvalid' });
    if (
      Number.isInteger(body.interestFreeDays) &&
      Number.isInteger(body.termDays) &&
      body.interestFreeDays > body.termDays
    )
      context.addIssue({
        code: 'custom',
        path: ['interestFreeDays'],
        message: 'hint_loanFreeDaysBeyondTerm',
      });
    const keys = new Set<string>();
    let images = 0;
    body.fields.forEach((field, index) => {
      if (keys.has(field.key))
        context.addIssue({
          code: 'custom',
          path: ['fields', index, 'key'],
          message: 'hint_loanFieldDuplicate',
        });
      keys.add(field.key);
      if (!field.label)
        context.addIssue({
          code: 'custom',
          path: ['fields', index, 'label'],
          message: 'hint_langEnglishRequired',
        });
      if (field.type === 'image') images += 1;
      if (field.type === 'choice' && field.options.length === 0)
        context.addIssue({
          code: 'custom',
          path: ['fields', index, 'options'],
          message: 'hint_loanChoicesRequired',
        });
      const values = new Set<string>();
      field.options.forEach((option, optionIndex) => {
        if (values.has(option.value) || !option.label)
          context.addIssue({
            code: 'custom',
            path: ['fields', index, 'options', optionIndex],
            message: option.label ? 'hint_loanFieldDuplicate' : 'hint_langEnglishRequired',
          });
        values.add(option.value);
      });
    });
    if (images > LOAN_LIMITS.imageFieldsMax)
      context.addIssue({
        code: 'custom',
        path: ['fields'],
        message: 'hint_loanTooManyImages',
      });
  });
export type LoanProductSaveBody = z.output<typeof loanProductSaveBody>;

export const loanProductStatusBody = z.object({
  id: intField(1),
  status: codeOf(LOAN_PRODUCT_STATUS),
});

export const consoleLoanQuery = pageQuery.extend({
  status: optionalInt(0, 3),
  userId: optionalInt(1),
  productId: optionalInt(1),
  overdue: optionalFlag.describe('true: only active loans past their due date.'),
});

export const consoleLoanOrder = loanOrder.extend({
  userId: z.number().int(),
  userAccount: z.string(),
  book: z.enum(['live', 'demo']).describe('The demo account borrows virtual funds.'),
  entryId: z.number().int().nullable().describe('The ledger entry of the disbursement.'),
  reviewedBy: z.string().nullable().describe('The operator who decided it.'),
});
export type ConsoleLoanOrder = z.output<typeof consoleLoanOrder>;

export const consoleLoanAnswer = z.object({
  key: z.string(),
  type: z.enum(LOAN_FIELD_TYPES),
  label: z.string().describe('The question as it was asked (English).'),
  value: z.string().nullable().describe('The answer (a choice: its label); null for an image.'),
  image: z.boolean(),
});

export const consoleLoanDetail = z.object({
  order: consoleLoanOrder,
  answers: z.array(consoleLoanAnswer),
  repayments: z.array(loanRepayment),
  /** The user's other loans, for the review. */
  history: z.object({
    repaid: z.number().int(),
    active: z.number().int(),
    overdue: z.number().int(),
    rejected: z.number().int(),
  }),
});
export type ConsoleLoanDetail = z.output<typeof consoleLoanDetail>;

export const loanAnswerImageQuery = z.object({ id: intField(1), key: loanFieldKey });

export const loanApproveBody = z.object({
  id: intField(1),
  amount: decimalAmount().describe('The amount lent: at most the amount asked.'),
});

export const loanRejectBody = z.object({ id: intField(1), reason: text(500, 1, 'multiLine') });

export const consoleLoanRepaymentQuery = pageQuery.extend({
  loanOrderId: optionalInt(1),
  userId: optionalInt(1),
});

export const consoleLoanRepayment = loanRepayment.extend({
  userId: z.number().int(),
  userAccount: z.string(),
  book: z.enum(['live', 'demo']),
});

export const loanReportRow = z.object({
  book: z.enum(['live', 'demo']),
  currencyId: z.number().int(),
  currencyName: z.string(),
  disbursed: z.string().describe('Every amount lent.'),
  outstanding: z.string().describe('Principal outstanding of the active loans.'),
  interestDue: z.string().describe('Interest accrued and unpaid.'),
  interestEarned: z.string().describe('Interest paid by borrowers.'),
  principalRepaid: z.string(),
  activeCount: z.number().int(),
  overdueCount: z.number().int(),
  overduePrincipal: z.string().describe('Principal outstanding of the overdue loans.'),
  reviewingCount: z.number().int(),
  repaidCount: z.number().int(),
});
export type LoanReportRow = z.output<typeof loanReportRow>;

export const loanReportQuery = z.object({
  book: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.enum(['live', 'demo']).optional(),
  ),
});

/** The name of each loan status, for texts keyed by it. */
export const LOAN_STATUS_NAMES = {
  [LOAN_STATUS.reviewing]: 'reviewing',
  [LOAN_STATUS.active]: 'active',
  [LOAN_STATUS.repaid]: 'repaid',
  [LOAN_STATUS.rejected]: 'rejected',
} as const;
