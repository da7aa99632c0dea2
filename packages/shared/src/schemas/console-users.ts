/**
 * Schemas of the console's user pages (/admin-api/users…, consoleUsersApi): finding users, a
 * user's profile, balances, ledger postings, orders, holdings, sessions and security state, and
 * the support actions that never touch money (end sessions, lift the withdrawal-password lock,
 * an admin's reset of a lost two-factor). Every list is a page of at most PAGE.maxSize rows;
 * amounts are decimal strings at their currency's scale.
 */
import { z } from 'zod';
import { intField, optionalFlag, optionalInt, pageQuery, safeString, text } from './common';
import { LOGIN_RESULTS } from './security';

const emptyToUndefined = (value: unknown) => (value === '' || value === null ? undefined : value);

const userId = intField(1, 2_147_483_647);

/** What a search looks in: the account (email, phone or user name), the id, the invite code. */
export const USER_SEARCH_FIELDS = ['account', 'id', 'inviteCode'] as const;
export type UserSearchField = (typeof USER_SEARCH_FIELDS)[number];

/** The columns a user list sorts by, on the server. */
export const USER_SORT_FIELDS = ['id', 'createTime', 'lastLoginTime'] as const;
export type UserSortField = (typeof USER_SORT_FIELDS)[number];

const book = z.preprocess(emptyToUndefined, z.enum(['live', 'demo']).optional());

/**
 * A search: `keyWords` in `field` (account by default), from the start of the account (its
 * prefix) unless `exact`; an id and an invite code are always matched exactly. Sorted on the
 * server, newest first by default.
 */
export const userSearchQuery = pageQuery
  .extend({
    keyWords: z.preprocess(
      emptyToUndefined,
      safeString(254)
        .transform((value) => value.trim())
        .optional(),
    ),
    field: z.preprocess(emptyToUndefined, z.enum(USER_SEARCH_FIELDS).default('account')),
    exact: optionalFlag,
    status: optionalInt(0, 1),
    sortField: z.preprocess(emptyToUndefined, z.enum(USER_SORT_FIELDS).default('id')),
    sortOrder: z.preprocess(emptyToUndefined, z.enum(['asc', 'desc']).default('desc')),
  })
  .superRefine((query, context) => {
    if (query.field === 'id' && query.keyWords && !/^\d{1,10}$/.test(query.keyWords)) {
      context.addIssue({ code: 'custom', message: 'hint_paramInvalid', path: ['keyWords'] });
    }
  });
export type UserSearchQuery = z.output<typeof userSearchQuery>;

export const userIdQuery = z.object({ id: userId });
export const userIdBody = z.object({ id: userId });

/** A page of one user's list. */
export const userPageQuery = pageQuery.extend({ id: userId });

export const userLedgerQuery = userPageQuery.extend({
  book,
  currencyId: optionalInt(1, 2_147_483_647),
});

/** The kinds of order a user's page lists. */
export const USER_ORDER_KINDS = ['contract', 'fastTrade', 'spot', 'coin'] as const;
export type UserOrderKind = (typeof USER_ORDER_KINDS)[number];

export const userOrdersQuery = userPageQuery.extend({
  kind: z.enum(USER_ORDER_KINDS),
  book,
  /** Only those still open: resting or open contracts, running fast trades, resting orders. */
  open: optionalFlag,
});

export const userHoldingsQuery = userPageQuery.extend({ book });

export const userSessionsQuery = userPageQuery.extend({
  /** Only the sessions still live (else every sign-in: the login history). */
  active: optionalFlag,
});

// ---------------------------------------------------------------- answers

/** A user as the console lists them. */
export const consoleUser = z.object({
  id: z.number().int(),
  userAccount: z.string(),
  regType: z.number().int().describe('0 phone, 1 email.'),
  areaCode: z.string().nullable(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  nickName: z.string(),
  inviteCode: z.string(),
  accountType: z.number().int().describe('The book the user last chose: 0 live, 2 demo.'),
  status: z.number().int().describe('0 active, 1 disabled by an operator.'),
  authStatus: z.number().int(),
  createTime: z.string(),
  lastLoginTime: z.string().nullable(),
});
export type ConsoleUser = z.output<typeof consoleUser>;

/** A user's profile on their page. */
export const consoleUserDetail = consoleUser.extend({
  inviter: z
    .object({ id: z.number().int(), userAccount: z.string() })
    .nullable()
    .describe('Who invited the user (their invite code at registration).'),
  invitedCount: z.number().int().describe('Users who registered with this invite code.'),
  withdrawPasswordSet: z.boolean(),
  withdrawPasswordChangeTime: z.string().nullable(),
  passwordChangeTime: z.string().nullable(),
  withdrawLock: z
    .object({
      failures: z.number().int().describe('Wrong withdrawal passwords counted now.'),
      lockedUntil: z.string().nullable().describe('Locked until then (five wrong in an hour).'),
    })
    .describe('The withdrawal-password attempt limit of the user.'),
  activeSessions: z.number().int(),
});
export type ConsoleUserDetail = z.output<typeof consoleUserDetail>;

/** A balance of one book and currency, by account kind. */
export const consoleUserBalance = z.object({
  book: z.enum(['live', 'demo']),
  currencyId: z.number().int(),
  currencyName: z.string(),
  available: z.string(),
  frozen: z.string(),
  margin: z.string().describe('Held by open contracts.'),
  staked: z.string(),
  loan: z.string(),
});
export type ConsoleUserBalance = z.output<typeof consoleUserBalance>;

/** One posting of the user's ledger accounts, with the journal entry it belongs to. */
export const consoleLedgerPosting = z.object({
  entryId: z.number().int(),
  line: z.number().int(),
  book: z.enum(['live', 'demo']),
  currencyId: z.number().int(),
  currencyName: z.string(),
  accountKind: z.string().describe('available, frozen, margin, staked or loan.'),
  amount: z.string().describe('Signed: + into the account, - out of it.'),
  balanceAfter: z.string(),
  entryType: z.string(),
  refType: z.string().nullable(),
  refId: z.string().nullable(),
  requestId: z.string().nullable(),
  memo: z.string().nullable(),
  createTime: z.string(),
});
export type ConsoleLedgerPosting = z.output<typeof consoleLedgerPosting>;

/** An order of any kind, in the fields the kinds share (absent ones null). */
export const consoleUserOrder = z.object({
  kind: z.enum(USER_ORDER_KINDS),
  id: z.number().int(),
  orderNo: z.string(),
  book: z.enum(['live', 'demo']),
  productCode: z.string(),
  direction: z.number().int().describe('1 buy (long, up), 2 sell (short, down).'),
  orderType: z.number().int().nullable().describe('1 market, 2 limit; null for fast trades.'),
  currencyName: z.string(),
  quantity: z.string().describe('Quantity (contracts, spot, coin) or stake (fast trades).'),
  limitPrice: z.string().nullable(),
  entryPrice: z.string().nullable().describe('Entry (contract, fast trade) or fill price.'),
  exitPrice: z.string().nullable(),
  leverage: z.number().int().nullable(),
  margin: z.string().nullable(),
  fee: z.string(),
  pnl: z.string().nullable().describe('Realized result (fast trade: + won, - lost).'),
  status: z
    .number()
    .int()
    .describe(
      'contract 0 resting, 1 open, 2 closed, 3 cancelled; fast trade 0 open, 1 won, 2 lost, 3 tie; spot and coin 0 resting, 1 filled, 2 cancelled.',
    ),
  closeReason: z.number().int().nullable(),
  createTime: z.string(),
  closeTime: z.string().nullable(),
});
export type ConsoleUserOrder = z.output<typeof consoleUserOrder>;

/** What a user holds of a product through spot (2) or coin-to-coin (3). */
export const consoleUserHolding = z.object({
  book: z.enum(['live', 'demo']),
  positionType: z.number().int(),
  productCode: z.string(),
  quantity: z.string(),
  frozenQuantity: z.string(),
  cost: z.string(),
  updateTime: z.string(),
});
export type ConsoleUserHolding = z.output<typeof consoleUserHolding>;

/** A session: each sign-in (and registration) opens one. */
export const consoleUserSession = z.object({
  id: z.number().int(),
  accountType: z.number().int(),
  createTime: z.string(),
  lastSeenTime: z.string(),
  expireTime: z.string(),
  revokeTime: z.string().nullable(),
  active: z.boolean(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
});
export type ConsoleUserSession = z.output<typeof consoleUserSession>;

export const userSessionsEnded = z.object({
  sessionsEnded: z.number().int().describe('Live sessions ended (0: there was none).'),
});

export const withdrawLockReset = z.object({
  changed: z.boolean().describe('False when nothing was counted.'),
});

// ---------------------------------------------------------------- security state

/** The security changes that hold a user's withdrawals for 24 hours, as the console names them. */
export const WITHDRAW_HOLD_CAUSES = [
  'password',
  'withdrawPassword',
  'whitelistOff',
  'twoFactorReset',
] as const;
export type WithdrawHoldCause = (typeof WITHDRAW_HOLD_CAUSES)[number];

const flag = z.literal([0, 1]);

/**
 * What protects a user's account, for support answering them: whether each safeguard is on and
 * when it last changed, never a secret (no anti-phishing phrase, no two-factor secret, no hash).
 */
export const consoleUserSecurity = z.object({
  twoFactor: flag.describe('1 when sign-in, withdrawals and security changes ask for a code.'),
  twoFactorPending: flag.describe('1 when set up but not yet confirmed with a code (not on).'),
  recoveryCodesLeft: z.number().int().describe('Recovery codes not used yet (0 when off).'),
  twoFactorResetTime: z
    .string()
    .nullable()
    .describe("When an admin last removed the user's two-factor (a lost authenticator), or null."),
  antiPhishing: flag.describe(
    '1 when an anti-phishing code is set. The code itself is never answered: only its owner reads it.',
  ),
  antiPhishingChangeTime: z.string().nullable(),
  whitelist: flag.describe('1 when withdrawals go only to saved destinations older than 24 hours.'),
  whitelistOffTime: z
    .string()
    .nullable()
    .describe('When the user last turned the whitelist off, or null.'),
  savedDestinations: z
    .number()
    .int()
    .describe('Bank cards and wallet addresses saved to withdraw to (deleted ones not counted).'),
  destinationsWaiting: z
    .number()
    .int()
    .describe('Of those, the ones set less than 24 hours ago: refused while the whitelist is on.'),
  withdrawPasswordSet: flag,
  withdrawPasswordChangeTime: z.string().nullable(),
  passwordChangeTime: z.string().nullable().describe('When the login password last changed.'),
  withdrawHoldUntil: z
    .string()
    .nullable()
    .describe(
      'Until when withdrawals are held after a security change, or null when they are not.',
    ),
  withdrawHoldCause: z
    .enum(WITHDRAW_HOLD_CAUSES)
    .nullable()
    .describe('The change that started the hold (the latest), or null.'),
  activeSessions: z.number().int().describe('Sessions live now.'),
  lastLoginTime: z.string().nullable(),
  lastFailedLoginTime: z
    .string()
    .nullable()
    .describe('The latest refused sign-in of the login history (90 days), or null.'),
  lastFailedLoginResult: z
    .enum(LOGIN_RESULTS)
    .nullable()
    .describe('Why it was refused: wrongPassword, locked, disabled or twoFactorFailed.'),
  authLevel: z.number().int().describe('The highest verified level: −1 none, 0 basic, 1 advanced.'),
  authStatus: z
    .number()
    .int()
    .describe('The basic verification: 0 none, 1 under review, 2 verified, 3 rejected.'),
});
export type ConsoleUserSecurity = z.output<typeof consoleUserSecurity>;

/** At most this many characters of a reset's reason (kept in the audit log). */
export const TWO_FACTOR_RESET_REASON_MAX = 500;

/**
 * An admin removes the two-factor of a user who lost their authenticator, saying why (how the
 * user proved who they are: kept in the audit log).
 */
export const userTwoFactorResetBody = userIdBody.extend({
  reason: text(TWO_FACTOR_RESET_REASON_MAX, 1, 'multiLine'),
});
export type UserTwoFactorResetBody = z.output<typeof userTwoFactorResetBody>;

export const userTwoFactorReset = z.object({
  sessionsEnded: z.number().int().describe('Live sessions ended (0: there was none).'),
  withdrawHoldUntil: z.string().describe('Withdrawals are held until then (24 hours).'),
});
