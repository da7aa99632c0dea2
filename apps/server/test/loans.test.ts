/**
 * Loans (loansApi, consoleLoansApi, the daily job): a product published in the console is listed
 * in the reader's language; an application answers its fields (an image re-encoded) and is
 * reviewed by finance, who lends at most the amount asked through the ledger; each ended day's
 * interest is accrued once by the scheduler (free days none, the term's days the daily rate, days
 * past the term the overdue rate), exactly the shared figures the app shows; repayments pay
 * interest first then principal, charge only the days used, are answered once per request id and
 * stay exact under parallel requests; daily settlement takes only what the balance holds; the
 * reminders go once per loan and day; the identity level and the open loans per user are enforced
 * under the user's lock; a demo account borrows in the demo book; the console's changes are
 * audited. The ledger verifies after every test, and the platform's loans account always equals
 * the interest paid less the principal outstanding.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  add,
  addDaysTo,
  loanDayInterest,
  loanRepaymentAtTerm,
  loanRepaymentSplit,
  normalize,
  sum,
  toScale,
  type LoanTerms,
} from '@bourse/shared';
import { ADMIN_USERNAME, adminLogin } from '../src/admin-login';
import * as ledger from '../src/ledger/ledger';
import { verifyLedger } from '../src/ledger/verify';
import { ManualClock } from '../src/lib/clock';
import { LoanDailyJob } from '../src/modules/loans';
import {
  call,
  createTestApp,
  deposit,
  GOOD_PASSWORD,
  registerUser,
  testConfig,
  type TestApp,
} from './helpers';
import { adminApiCall, operatorReady, operatorSignIn } from './support/admin-api';
import { flatPng, HTML } from './support/test-images';

const USDT = 3;
const SCALE = 4;
const FINANCE = 'loan-finance';
const SUPPORT = 'loan-support';
const OPERATOR_PASSWORD = 'steady orchard lamp';

let t: TestApp;
let dir: string;
let adminPassword = '';
let png = '';
let sequence = 0;
const requestId = () => `loan-${++sequence}-${Date.now()}`;

/** A fresh session of an operator (sessions end after 8 idle hours; the tests move days on). */
const operator = (username: string, password = OPERATOR_PASSWORD) =>
  operatorSignIn(t.app, username, password);

async function consoleCall(username: string, method: 'GET' | 'POST', url: string, input?: unknown) {
  const token = await operator(username, username === ADMIN_USERNAME ? adminPassword : undefined);
  return method === 'GET'
    ? adminApiCall(t.app, method, url, { token, query: input as Record<string, string> })
    : adminApiCall(t.app, method, url, { token, json: input });
}

interface Borrower {
  token: string;
  userId: number;
  email: string;
}

async function borrower(): Promise<Borrower> {
  return registerUser(t.app);
}

/** Signs the user in again (the tests move the clock by days). */
async function signIn(user: Borrower): Promise<Borrower> {
  const result = await call(t.app, 'POST', '/api/userInfo/login', {
    form: { userAccount: user.email, userPwd: GOOD_PASSWORD },
  });
  expect(result.status, JSON.stringify(result.body)).toBe(200);
  return { ...user, token: result.body.data.token as string };
}

interface ProductInput {
  termDays?: number;
  interestFreeDays?: number;
  dailyRate?: string;
  overdueDailyRate?: string;
  settlement?: number;
  maxOpenLoans?: number;
  minIdentityLevel?: number;
  minAmount?: string;
  maxAmount?: string;
  fields?: unknown[];
}

async function product(input: ProductInput = {}) {
  const saved = await consoleCall(FINANCE, 'POST', '/loans/products/save', {
    name: { en: 'Quick loan', fr: 'Prêt rapide' },
    description: { en: 'Pay back within the term' },
    currencyId: USDT,
    minAmount: input.minAmount ?? '100',
    maxAmount: input.maxAmount ?? '5000',
    termDays: input.termDays ?? 10,
    interestFreeDays: input.interestFreeDays ?? 0,
    dailyRate: input.dailyRate ?? '0.001',
    overdueDailyRate: input.overdueDailyRate ?? '0.005',
    settlement: input.settlement ?? 2,
    maxOpenLoans: input.maxOpenLoans ?? 3,
    minIdentityLevel: input.minIdentityLevel ?? -1,
    fields: input.fields ?? [],
  });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  return saved.body.data as { id: number; status: number };
}

function termsOf(input: ProductInput): LoanTerms {
  return {
    termDays: input.termDays ?? 10,
    interestFreeDays: input.interestFreeDays ?? 0,
    dailyRate: input.dailyRate ?? '0.001',
    overdueDailyRate: input.overdueDailyRate ?? '0.005',
  };
}

async function apply(
  user: Borrower,
  productId: number,
  amount: string,
  fields?: Record<string, string>,
  id = requestId(),
) {
  return call(t.app, 'POST', '/api/loanOrder/add', {
    token: user.token,
    json: { loanProductId: productId, amount, requestId: id, ...(fields ? { fields } : {}) },
  });
}

async function applied(user: Borrower, productId: number, amount: string) {
  const result = await apply(user, productId, amount);
  expect(result.status, JSON.stringify(result.body)).toBe(200);
  return result.body.data as { id: number; status: number };
}

async function approve(id: number, amount: string) {
  const result = await consoleCall(FINANCE, 'POST', '/loans/orders/approve', { id, amount });
  expect(result.status, JSON.stringify(result.body)).toBe(200);
  return result.body;
}

/** Applies and has finance lend the whole amount; the loan as its user sees it. */
async function borrowed(user: Borrower, productId: number, amount: string) {
  const { id } = await applied(user, productId, amount);
  await approve(id, amount);
  return id;
}

async function loan(user: Borrower, id: number) {
  const result = await call(t.app, 'GET', '/api/loanOrder/detail', {
    token: user.token,
    query: { id: String(id) },
  });
  expect(result.status, JSON.stringify(result.body)).toBe(200);
  return result.body.data as Record<string, any>;
}

function repay(user: Borrower, loanOrderId: number, amount: string, extra: object = {}) {
  return call(t.app, 'POST', '/api/userLoanRepaymentOrder/userLoanRepayment', {
    token: user.token,
    json: { loanOrderId, amount, requestId: requestId(), ...extra },
  });
}

async function interestRecords(user: Borrower, loanOrderId: number) {
  const result = await call(t.app, 'GET', '/api/loanOrderInterestRecord/list', {
    token: user.token,
    query: { loanOrderId: String(loanOrderId), pageSize: '100' },
  });
  expect(result.status, JSON.stringify(result.body)).toBe(200);
  return result.body.rows as Record<string, any>[];
}

async function available(userId: number, book: ledger.Book = 'live'): Promise<string> {
  const { rows } = await t.db.query<{ balance: string }>(
    `SELECT balance FROM ledger_account WHERE book = $1 AND owner_type = 'user' AND owner_id = $2
       AND currency_id = $3 AND kind = 'available'`,
    [book, userId, USDT],
  );
  return toScale(rows[0]?.balance ?? '0', SCALE);
}

/** Moves money out of a user's balance, as a paid withdrawal would. */
function spend(userId: number, amount: string) {
  return t.db.transaction((tx) =>
    ledger.transfer(tx, {
      book: 'live',
      type: 'test_spend',
      from: ledger.user(userId, USDT),
      to: ledger.platform(USDT, 'external'),
      amount,
    }),
  );
}

/** The UTC date the clock is at. */
const today = () => t.clock.now().toISOString().slice(0, 10);

/** Moves the clock to `date` at `time` UTC and runs the daily work due. */
async function runTo(date: string, time = '00:10') {
  t.clock.set(new Date(`${date}T${time}:00Z`));
  await t.app.services.scheduler.runDue();
}

async function notices(userId: number) {
  const { rows } = await t.db.query<{ type: string; ref: string; params: string[] }>(
    `SELECT type, ref, params FROM user_notification WHERE user_id = $1 AND type LIKE 'loan%'
     ORDER BY id`,
    [userId],
  );
  return rows;
}

beforeAll(async () => {
  t = await createTestApp({
    clock: new ManualClock(new Date('2030-03-01T10:00:00Z')),
    env: { SESSION_TTL_HOURS: '720' },
  });
  png = `data:image/png;base64,${(await flatPng(40, 30)).toString('base64')}`;
  dir = await mkdtemp(path.join(os.tmpdir(), 'bourse-loans-'));
  const seeded = await adminLogin(testConfig({ DATA_DIR: path.join(dir, 'data') }), t.db, t.clock);
  adminPassword = seeded.password!;
  const admin = await operatorReady(t.app, ADMIN_USERNAME, adminPassword);
  for (const [username, role] of [
    [FINANCE, 'finance'],
    [SUPPORT, 'support'],
  ] as const) {
    const created = await adminApiCall(t.app, 'POST', '/operators/create', {
      token: admin,
      json: { username, password: OPERATOR_PASSWORD, roles: [role] },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    await operatorReady(t.app, username, OPERATOR_PASSWORD);
  }
  // Most loans here need no verified identity; the gate has a test of its own.
  const requirement = await adminApiCall(t.app, 'POST', '/identity/requirements/save', {
    token: admin,
    json: { feature: 'loan', minLevel: -1 },
  });
  expect(requirement.status, JSON.stringify(requirement.body)).toBe(200);
  // The scheduler's first day: today.
  await t.app.services.scheduler.runDue();
});

afterEach(async () => {
  expect((await verifyLedger(t.db)).problems).toEqual([]);
  // The platform's loans account: interest paid less the principal outstanding, per book.
  const { rows } = await t.db.query<{ book: string; account: string; loans: string }>(
    `SELECT b.book,
            coalesce((SELECT sum(balance) FROM ledger_account a WHERE a.book = b.book
                       AND a.owner_type = 'platform' AND a.kind = 'loans' AND a.currency_id = $1), 0)
              AS account,
            coalesce((SELECT sum(interest_paid - principal) FROM loan_order o
                       WHERE o.book = b.book AND o.currency_id = $1), 0) AS loans
     FROM (VALUES ('live'), ('demo')) AS b (book)`,
    [USDT],
  );
  for (const row of rows) expect(normalize(row.account), row.book).toBe(normalize(row.loans));
});

afterAll(async () => {
  await t?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('products', () => {
  it('are published by finance, listed in the reader language, and closed to new applications', async () => {
    const created = await product({ termDays: 7, interestFreeDays: 2 });
    const bySupport = await consoleCall(SUPPORT, 'GET', '/loans/products');
    expect(bySupport.status).toBe(403);
    const user = await borrower();
    const listed = await call(t.app, 'GET', '/api/loanProduct/list', {
      token: user.token,
      headers: { 'Accept-Language': 'fr' },
      query: { pageSize: '100' },
    });
    expect(listed.status).toBe(200);
    expect(listed.body.rows!.find((row) => row.id === created.id)).toMatchObject({
      name: 'Prêt rapide',
      description: 'Pay back within the term',
      currencyName: 'USDT',
      minAmount: '100.0000',
      maxAmount: '5000.0000',
      termDays: 7,
      interestFreeDays: 2,
      dailyRate: '0.001',
      settlement: 2,
      openLoans: 0,
      identityMet: true,
    });
    // Anonymous visitors see the products too, without a user's state.
    const anonymous = await call(t.app, 'GET', '/api/loanProduct/list');
    expect(anonymous.body.rows!.find((row) => row.id === created.id)).toMatchObject({
      identityMet: null,
    });

    const closed = await consoleCall(FINANCE, 'POST', '/loans/products/status', {
      id: created.id,
      status: 0,
    });
    expect(closed.body).toMatchObject({ code: 200, msg: 'hint_success' });
    const again = await consoleCall(FINANCE, 'POST', '/loans/products/status', {
      id: created.id,
      status: 0,
    });
    expect(again.body.msg).toBe('hint_48');
    const after = await call(t.app, 'GET', '/api/loanProduct/list', { query: { pageSize: '100' } });
    expect(after.body.rows!.some((row) => row.id === created.id)).toBe(false);
    const refused = await apply(user, created.id, '200');
    expect(refused.body).toMatchObject({ msg: 'hint_loanProductClosed' });
    const { rows: audit } = await t.db.query<{ action: string }>(
      `SELECT action FROM audit_log WHERE target_type = 'loanProduct' AND target_id = $1 ORDER BY id`,
      [String(created.id)],
    );
    expect(audit.map((row) => row.action)).toEqual(['loans.product.create', 'loans.product.close']);
  });

  it('refuse terms that do not hold together', async () => {
    const bad = await consoleCall(FINANCE, 'POST', '/loans/products/save', {
      name: { en: 'Bad' },
      currencyId: USDT,
      minAmount: '500',
      maxAmount: '100',
      termDays: 5,
      interestFreeDays: 1,
      dailyRate: '0.001',
      overdueDailyRate: '0.002',
      settlement: 1,
      maxOpenLoans: 1,
      minIdentityLevel: -1,
    });
    expect(bad.body).toMatchObject({ msg: 'hint_loanRangeInvalid', params: ['maxAmount'] });
    const free = await consoleCall(FINANCE, 'POST', '/loans/products/save', {
      name: { en: 'Bad' },
      currencyId: USDT,
      minAmount: '100',
      maxAmount: '500',
      termDays: 5,
      interestFreeDays: 6,
      dailyRate: '0.2',
      overdueDailyRate: '0.002',
      settlement: 1,
      maxOpenLoans: 1,
      minIdentityLevel: -1,
    });
    expect(free.status).toBe(400);
    const choice = await consoleCall(FINANCE, 'POST', '/loans/products/save', {
      name: { en: 'Bad' },
      currencyId: USDT,
      minAmount: '100',
      maxAmount: '500',
      termDays: 5,
      interestFreeDays: 0,
      dailyRate: '0.001',
      overdueDailyRate: '0.002',
      settlement: 1,
      maxOpenLoans: 1,
      minIdentityLevel: -1,
      fields: [{ key: 'job', type: 'choice', label: { en: 'Job' }, options: [] }],
    });
    expect(choice.body).toMatchObject({ msg: 'hint_loanChoicesRequired' });
  });
});

describe('a loan', () => {
  it('is applied for, reviewed, lent, accrues day by day, and is repaid in part and in full', async () => {
    const input: ProductInput = {
      termDays: 10,
      interestFreeDays: 2,
      dailyRate: '0.001',
      overdueDailyRate: '0.005',
      maxAmount: '5000',
      fields: [
        { key: 'purpose', type: 'text', label: { en: 'Purpose', fr: 'Objet' }, required: true },
        { key: 'income', type: 'number', label: { en: 'Monthly income' } },
        {
          key: 'employment',
          type: 'choice',
          label: { en: 'Employment' },
          required: true,
          options: [
            { value: 'salaried', label: { en: 'Salaried' } },
            { value: 'self', label: { en: 'Self-employed' } },
          ],
        },
        { key: 'idPhoto', type: 'image', label: { en: 'Photo of your ID' }, required: true },
      ],
    };
    const created = await product(input);
    const terms = termsOf(input);
    let user = await borrower();
    const fields = { purpose: 'A new bicycle', income: '2500', employment: 'self', idPhoto: png };

    // The answers must fit the product's fields.
    expect((await apply(user, created.id, '1000', { ...fields, purpose: ' ' })).body).toMatchObject(
      {
        msg: 'hint_loanFieldRequired',
        params: ['purpose'],
      },
    );
    expect(
      (await apply(user, created.id, '1000', { ...fields, employment: 'retired' })).body,
    ).toMatchObject({
      msg: 'hint_loanFieldInvalid',
      params: ['employment'],
    });
    expect(
      (await apply(user, created.id, '1000', { ...fields, income: 'lots' })).body,
    ).toMatchObject({
      msg: 'hint_loanFieldInvalid',
      params: ['income'],
    });
    expect((await apply(user, created.id, '1000', { ...fields, extra: 'x' })).body).toMatchObject({
      msg: 'hint_loanFieldUnknown',
      params: ['extra'],
    });
    expect(
      (await apply(user, created.id, '1000', { ...fields, idPhoto: HTML.toString('base64') })).body,
    ).toMatchObject({ msg: 'hint_imageFormat', params: ['idPhoto'] });
    expect((await apply(user, created.id, '5000.01', fields)).body).toMatchObject({
      msg: 'hint_amountAboveMax',
      params: ['5000.0000', 'USDT'],
    });
    expect((await apply(user, created.id, '100.00001', fields)).body).toMatchObject({
      msg: 'hint_amountDecimals',
    });

    const id = requestId();
    const first = await apply(user, created.id, '1000', fields, id);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const loanId = first.body.data.id as number;
    expect(first.body.data).toMatchObject({
      status: 0,
      amount: '1000.0000',
      approvedAmount: null,
      termDays: 10,
      interestFreeDays: 2,
      dailyRate: '0.001',
      overdueDailyRate: '0.005',
      principal: '0.0000',
    });
    // The same request again answers the same application; another under its id is refused.
    expect((await apply(user, created.id, '1000', fields, id)).body.data.id).toBe(loanId);
    expect((await apply(user, created.id, '900', fields, id)).body.msg).toBe(
      'hint_requestIdReused',
    );
    const { rows: stored } = await t.db.query<{
      field_key: string;
      value: string | null;
      mime: string | null;
    }>('SELECT field_key, value, mime FROM loan_answer WHERE loan_id = $1 ORDER BY field_key', [
      loanId,
    ]);
    expect(stored).toEqual([
      { field_key: 'employment', value: 'self', mime: null },
      { field_key: 'idPhoto', value: null, mime: 'image/jpeg' },
      { field_key: 'income', value: '2500', mime: null },
      { field_key: 'purpose', value: 'A new bicycle', mime: null },
    ]);

    // Finance sees the answers and the image (audited), and lends at most the amount asked.
    const detail = await consoleCall(FINANCE, 'GET', '/loans/orders/detail', {
      id: String(loanId),
    });
    expect(detail.body.data.answers).toContainEqual({
      key: 'employment',
      type: 'choice',
      label: 'Employment',
      value: 'Self-employed (self)',
      image: false,
    });
    const image = await t.app.inject({
      method: 'GET',
      url: `/admin-api/loans/orders/image?id=${loanId}&key=idPhoto`,
      headers: { authorization: `Bearer ${await operator(FINANCE)}` },
    });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/jpeg');
    expect(image.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    const { rows: viewed } = await t.db.query(
      `SELECT 1 FROM audit_log WHERE action = 'loans.viewImage' AND target_id = $1`,
      [String(loanId)],
    );
    expect(viewed).toHaveLength(1);
    const above = await consoleCall(FINANCE, 'POST', '/loans/orders/approve', {
      id: loanId,
      amount: '1000.01',
    });
    expect(above.body).toMatchObject({ msg: 'hint_loanApproveAboveAsked' });
    const startDate = today();
    const approved = await approve(loanId, '800');
    expect(approved.data).toMatchObject({
      status: 1,
      approvedAmount: '800.0000',
      principal: '800.0000',
      startDate,
      dueDate: addDaysTo(startDate, 10),
      book: 'live',
    });
    expect((await approve(loanId, '800')).msg).toBe('hint_48');
    const late = await consoleCall(FINANCE, 'POST', '/loans/orders/reject', {
      id: loanId,
      reason: 'Too late',
    });
    expect(late.body.msg).toBe('hint_reviewClosed');
    expect(await available(user.userId)).toBe('800.0000');
    expect((await notices(user.userId)).map((row) => row.type)).toEqual(['loanApproved']);

    // Days 1 and 2 are free, days 3 and 4 bear 0.8 each: accrued at the next days' runs.
    await runTo(addDaysTo(startDate, 4));
    user = await signIn(user);
    const records = await interestRecords(user, loanId);
    expect(records.map((row) => [row.dayNumber, row.kind, row.amount])).toEqual([
      [4, 'normal', '0.8000'],
      [3, 'normal', '0.8000'],
      [2, 'free', '0.0000'],
      [1, 'free', '0.0000'],
    ]);
    expect(records[0]!.day).toBe(addDaysTo(startDate, 3));
    const afterFour = await loan(user, loanId);
    expect(afterFour).toMatchObject({ interestDue: '1.6000', daysUsed: 4, overdue: false });
    expect(afterFour.interestDue).toBe(
      toScale(sum([3, 4].map((day) => loanDayInterest('800', day, terms, SCALE))), SCALE),
    );

    // A part: interest first, then principal; the split shown before is what is paid.
    const shown = loanRepaymentSplit('100.8', { interest: '1.6', principal: '800' });
    const partId = requestId();
    const part = await call(t.app, 'POST', '/api/userLoanRepaymentOrder/userLoanRepayment', {
      token: user.token,
      json: { loanOrderId: loanId, amount: '100.8', interestDue: '1.6', requestId: partId },
    });
    expect(part.status, JSON.stringify(part.body)).toBe(200);
    expect(part.body.data).toMatchObject({
      amount: '100.8000',
      interest: toScale(shown.interest, SCALE),
      principal: toScale(shown.principal, SCALE),
      interestLeft: '0.0000',
      principalLeft: '700.8000',
      repaid: false,
    });
    // The same request id answers the same repayment and moves nothing again.
    const repeated = await call(t.app, 'POST', '/api/userLoanRepaymentOrder/userLoanRepayment', {
      token: user.token,
      json: { loanOrderId: loanId, amount: '100.8', interestDue: '1.6', requestId: partId },
    });
    expect(repeated.body.data.id).toBe(part.body.data.id);
    const reused = await call(t.app, 'POST', '/api/userLoanRepaymentOrder/userLoanRepayment', {
      token: user.token,
      json: { loanOrderId: loanId, amount: '10', requestId: partId },
    });
    expect(reused.body.msg).toBe('hint_requestIdReused');
    expect(await available(user.userId)).toBe('699.2000');

    // Three days later, a few minutes after midnight, before the daily run: the ended days are
    // due all the same, and repaying all of it charges exactly them.
    t.clock.set(new Date(`${addDaysTo(startDate, 7)}T00:02:00Z`));
    const beforeRun = await loan(user, loanId);
    const threeDays = toScale(
      sum([5, 6, 7].map((day) => loanDayInterest('700.8', day, terms, SCALE))),
      SCALE,
    );
    expect(beforeRun).toMatchObject({ interestDue: threeDays, principal: '700.8000', daysUsed: 7 });
    expect(threeDays).toBe('2.1024');
    const stale = await repay(user, loanId, beforeRun.totalDue, { interestDue: '1.6' });
    expect(stale.body).toMatchObject({ msg: 'hint_loanDueChanged' });
    const tooMuch = await repay(user, loanId, '702.9025');
    expect(tooMuch.body).toMatchObject({
      msg: 'hint_loanRepayAboveDue',
      params: ['702.9024', 'USDT'],
    });
    const short = await repay(user, loanId, beforeRun.totalDue, {
      interestDue: beforeRun.interestDue,
    });
    expect(short.body.msg).toBe('hint_insufficientBalance');
    await deposit(t.db, user.userId, '100');
    const full = await repay(user, loanId, beforeRun.totalDue, {
      interestDue: beforeRun.interestDue,
    });
    expect(full.status, JSON.stringify(full.body)).toBe(200);
    expect(full.body.data).toMatchObject({
      amount: '702.9024',
      interest: '2.1024',
      principal: '700.8000',
      repaid: true,
    });
    expect(await available(user.userId)).toBe('96.2976');
    // The daily run after it charges nothing more.
    await runTo(addDaysTo(startDate, 7));
    await runTo(addDaysTo(startDate, 8));
    expect(await interestRecords(user, loanId)).toHaveLength(7);
    expect(await loan(user, loanId)).toMatchObject({
      status: 2,
      principal: '0.0000',
      interestDue: '0.0000',
      interestPaid: '3.7024',
      principalRepaid: '800.0000',
      totalDue: '0.0000',
      overdue: false,
    });
    const again = await repay(user, loanId, '1');
    expect(again.body.msg).toBe('hint_loanNotActive');
    expect((await notices(user.userId)).map((row) => row.type)).toEqual([
      'loanApproved',
      'loanRepayment',
      'loanRepaid',
    ]);
    const repayments = await call(t.app, 'GET', '/api/userLoanRepaymentOrder/list', {
      token: user.token,
      query: { loanOrderId: String(loanId) },
    });
    expect(repayments.body.rows!.map((row) => row.amount)).toEqual(['702.9024', '100.8000']);
    // The user's balance records file the loan's money under Loans: lent, then repaid twice.
    const filed = await call(t.app, 'GET', '/api/balanceRecord/list', {
      token: user.token,
      query: { type: 'loan' },
    });
    expect(filed.body.rows!.map((row) => [row.type, row.entryType, row.amount])).toEqual([
      ['loan', 'loan_repay', '-702.9024'],
      ['loan', 'loan_repay', '-100.8000'],
      ['loan', 'loan_disburse', '800.0000'],
    ]);
  });

  it('repaid on its due date costs exactly the total shown before applying', async () => {
    const input: ProductInput = { termDays: 5, interestFreeDays: 1, dailyRate: '0.002' };
    const created = await product(input);
    const shown = loanRepaymentAtTerm('500', termsOf(input), SCALE);
    expect(shown).toMatchObject({ interest: '4.0000', total: '504.0000' });
    let user = await borrower();
    await deposit(t.db, user.userId, '10');
    const loanId = await borrowed(user, created.id, '500');
    const start = today();
    await runTo(addDaysTo(start, 5), '18:00');
    user = await signIn(user);
    const due = await loan(user, loanId);
    expect(due).toMatchObject({
      dueDate: addDaysTo(start, 5),
      overdue: false,
      totalDue: shown.total,
    });
    const paid = await repay(user, loanId, due.totalDue, { interestDue: due.interestDue });
    expect(paid.body.data).toMatchObject({
      amount: shown.total,
      interest: shown.interest,
      repaid: true,
    });
    expect(await available(user.userId)).toBe('6.0000');
  });

  it('rejected, tells its user why and moves no money', async () => {
    const created = await product();
    const user = await borrower();
    const { id } = await applied(user, created.id, '300');
    const rejected = await consoleCall(FINANCE, 'POST', '/loans/orders/reject', {
      id,
      reason: 'Income could not be confirmed',
    });
    expect(rejected.body.data).toMatchObject({
      status: 3,
      rejectReason: 'Income could not be confirmed',
    });
    const again = await consoleCall(FINANCE, 'POST', '/loans/orders/reject', { id, reason: 'x' });
    expect(again.body.msg).toBe('hint_48');
    const approvedLate = await consoleCall(FINANCE, 'POST', '/loans/orders/approve', {
      id,
      amount: '300',
    });
    expect(approvedLate.body.msg).toBe('hint_reviewClosed');
    expect(await available(user.userId)).toBe('0.0000');
    const [notice] = await notices(user.userId);
    expect(notice).toMatchObject({
      type: 'loanRejected',
      params: ['300.0000', 'USDT', expect.any(String), 'Income could not be confirmed'],
    });
  });

  it('keeps the terms it was asked under when the product changes', async () => {
    const created = await product({ dailyRate: '0.001' });
    const user = await borrower();
    const { id } = await applied(user, created.id, '400');
    const changed = await consoleCall(FINANCE, 'POST', '/loans/products/save', {
      id: created.id,
      name: { en: 'Quick loan' },
      currencyId: USDT,
      minAmount: '100',
      maxAmount: '5000',
      termDays: 20,
      interestFreeDays: 0,
      dailyRate: '0.003',
      overdueDailyRate: '0.009',
      settlement: 2,
      maxOpenLoans: 3,
      minIdentityLevel: -1,
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    await approve(id, '400');
    expect(await loan(user, id)).toMatchObject({
      dailyRate: '0.001',
      overdueDailyRate: '0.005',
      termDays: 10,
    });
    const currency = await consoleCall(FINANCE, 'POST', '/loans/products/save', {
      id: created.id,
      name: { en: 'Quick loan' },
      currencyId: 1,
      minAmount: '100',
      maxAmount: '5000',
      termDays: 20,
      interestFreeDays: 0,
      dailyRate: '0.003',
      overdueDailyRate: '0.009',
      settlement: 2,
      maxOpenLoans: 3,
      minIdentityLevel: -1,
    });
    expect(currency.body.msg).toBe('hint_loanCurrencyFixed');
  });
});

describe('the daily run', () => {
  it('settles daily only what the balance covers, never below zero', async () => {
    const created = await product({
      termDays: 10,
      dailyRate: '0.01',
      overdueDailyRate: '0.02',
      settlement: 1,
    });
    let user = await borrower();
    const loanId = await borrowed(user, created.id, '100');
    const start = today();
    await spend(user.userId, '98.5');
    expect(await available(user.userId)).toBe('1.5000');

    await runTo(addDaysTo(start, 1));
    user = await signIn(user);
    expect(await available(user.userId)).toBe('0.5000');
    expect(await loan(user, loanId)).toMatchObject({
      interestDue: '0.0000',
      interestPaid: '1.0000',
    });
    await runTo(addDaysTo(start, 2));
    expect(await available(user.userId)).toBe('0.0000');
    expect(await loan(user, loanId)).toMatchObject({
      interestDue: '0.5000',
      interestPaid: '1.5000',
    });
    await runTo(addDaysTo(start, 3));
    expect(await available(user.userId)).toBe('0.0000');
    expect(await loan(user, loanId)).toMatchObject({
      interestDue: '1.5000',
      interestPaid: '1.5000',
    });
    const records = await interestRecords(user, loanId);
    expect(records.map((row) => [row.dayNumber, row.amount, row.settled])).toEqual([
      [3, '1.0000', '0.0000'],
      [2, '1.0000', '0.5000'],
      [1, '1.0000', '1.0000'],
    ]);
    await deposit(t.db, user.userId, '10');
    await runTo(addDaysTo(start, 4));
    expect(await available(user.userId)).toBe('7.5000');
    expect(await loan(user, loanId)).toMatchObject({
      interestDue: '0.0000',
      interestPaid: '4.0000',
    });
  });

  it('charges the overdue rate past the term, shows it overdue, and reminds once a day', async () => {
    const input: ProductInput = {
      termDays: 4,
      dailyRate: '0.001',
      overdueDailyRate: '0.01',
      settlement: 2,
    };
    const created = await product(input);
    let user = await borrower();
    const loanId = await borrowed(user, created.id, '1000');
    const start = today();
    const dueDate = addDaysTo(start, 4);
    for (let day = 1; day <= 6; day += 1) await runTo(addDaysTo(start, day));
    user = await signIn(user);
    const records = await interestRecords(user, loanId);
    expect(records.map((row) => [row.dayNumber, row.kind, row.amount])).toEqual([
      [6, 'overdue', '10.0000'],
      [5, 'overdue', '10.0000'],
      [4, 'normal', '1.0000'],
      [3, 'normal', '1.0000'],
      [2, 'normal', '1.0000'],
      [1, 'normal', '1.0000'],
    ]);
    expect(await loan(user, loanId)).toMatchObject({
      overdue: true,
      overdueDays: 2,
      dueDate,
      interestDue: '24.0000',
      totalDue: '1024.0000',
    });
    const reminders = (await notices(user.userId)).filter((row) => row.type !== 'loanApproved');
    expect(reminders.map((row) => [row.type, row.params[0]])).toEqual([
      ['loanDueSoon', '3'],
      ['loanDueSoon', '1'],
      ['loanOverdue', '1'],
      ['loanOverdue', '2'],
    ]);
    expect(reminders[0]!.params).toEqual(['3', '1001.0000', 'USDT', dueDate, expect.any(String)]);

    // The day run again (a crash before it was marked done): nothing charged or told twice.
    await t.db.query(`DELETE FROM scheduler_day WHERE job = 'loans' AND day = $1`, [today()]);
    await t.app.services.scheduler.runDue();
    expect(await interestRecords(user, loanId)).toHaveLength(6);
    expect(await notices(user.userId)).toHaveLength(5);
    expect(await loan(user, loanId)).toMatchObject({ interestDue: '24.0000' });

    const overdue = await consoleCall(FINANCE, 'GET', '/loans/orders', {
      overdue: 'true',
      pageSize: '100',
    });
    expect(overdue.body.rows!.map((row) => row.id)).toContain(loanId);
    const report = await consoleCall(FINANCE, 'GET', '/loans/report', { book: 'live' });
    const usdt = report.body.rows!.find((row) => row.currencyId === USDT)!;
    expect(usdt.overdueCount).toBeGreaterThanOrEqual(1);
    expect(Number(usdt.overduePrincipal)).toBeGreaterThanOrEqual(1000);

    // A day caught up after downtime reminds no one of a past date.
    await runTo(addDaysTo(start, 9));
    const late = (await notices(user.userId)).filter((row) => row.type === 'loanOverdue');
    expect(late.map((row) => row.params[0])).toEqual(['1', '2', '5']);
    expect(await interestRecords(user, loanId)).toHaveLength(9);
    await deposit(t.db, user.userId, '100');
    user = await signIn(user);
    const owed = await loan(user, loanId);
    expect(owed.totalDue).toBe('1054.0000');
    expect(
      (await repay(user, loanId, owed.totalDue, { interestDue: owed.interestDue })).status,
    ).toBe(200);
  });
});

describe('under load and limits', () => {
  it('accrues the active loans in bounded batches, and a day run again processes none', async () => {
    const created = await product({ dailyRate: '0.001', settlement: 1 });
    const users = await Promise.all(Array.from({ length: 5 }, () => borrower()));
    const ids: number[] = [];
    for (const user of users) ids.push(await borrowed(user, created.id, '200'));
    // The scheduler's own job is not run: a job of batches of two does the next day.
    const job = new LoanDailyJob({
      db: t.db,
      clock: t.clock,
      settings: t.app.services.settings,
      batchSize: 2,
    });
    const day = addDaysTo(today(), 1);
    t.clock.set(new Date(`${day}T00:10:00Z`));
    expect(await job.runDay(day, t.clock.now())).toBeGreaterThanOrEqual(5);
    const { rows } = await t.db.query<{ accrued_days: number; interest_paid: string }>(
      'SELECT accrued_days, interest_paid FROM loan_order WHERE id = ANY($1::bigint[]) ORDER BY id',
      [ids],
    );
    expect(rows.map((row) => [row.accrued_days, normalize(row.interest_paid)])).toEqual(
      ids.map(() => [1, '0.2']),
    );
    expect(await job.runDay(day, t.clock.now())).toBe(0);
    for (const user of users) expect(await available(user.userId)).toBe('199.8000');
    await t.app.services.scheduler.runDue();
    const { rows: again } = await t.db.query<{ count: number }>(
      'SELECT count(*)::int AS count FROM loan_interest_record WHERE loan_id = ANY($1::bigint[])',
      [ids],
    );
    expect(again[0]!.count).toBe(5);
  });

  it('takes parallel repayments one at a time, exactly', async () => {
    const created = await product({ interestFreeDays: 10, termDays: 10 });
    const user = await borrower();
    const loanId = await borrowed(user, created.id, '100');
    const results = await Promise.all(Array.from({ length: 12 }, () => repay(user, loanId, '10')));
    const paid = results.filter((result) => result.status === 200);
    expect(paid).toHaveLength(10);
    for (const result of results.filter((result) => result.status !== 200))
      expect(['hint_loanNotActive', 'hint_loanRepayAboveDue']).toContain(result.body.msg);
    expect(paid.filter((result) => result.body.data.repaid)).toHaveLength(1);
    expect(await available(user.userId)).toBe('0.0000');
    expect(await loan(user, loanId)).toMatchObject({ status: 2, principalRepaid: '100.0000' });
  });

  it('allows a product its open loans per user, also under parallel applications', async () => {
    const created = await product({ maxOpenLoans: 2 });
    const user = await borrower();
    const results = await Promise.all(
      Array.from({ length: 8 }, () => apply(user, created.id, '150')),
    );
    expect(results.filter((result) => result.status === 200)).toHaveLength(2);
    for (const result of results.filter((result) => result.status !== 200))
      expect(result.body).toMatchObject({ msg: 'hint_loanLimitReached', params: [2] });
    const [first] = results.filter((result) => result.status === 200);
    await consoleCall(FINANCE, 'POST', '/loans/orders/reject', {
      id: first!.body.data.id,
      reason: 'One at a time',
    });
    expect((await apply(user, created.id, '150')).status).toBe(200);
    const listed = await call(t.app, 'GET', '/api/loanProduct/list', {
      token: user.token,
      query: { pageSize: '100' },
    });
    expect(listed.body.rows!.find((row) => row.id === created.id)!.openLoans).toBe(2);
  });

  it('asks for the identity level the product and the loan feature need', async () => {
    const created = await product({ minIdentityLevel: 0 });
    const user = await borrower();
    const refused = await apply(user, created.id, '200');
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 500, msg: 'hint_identityRequired', params: [1] });
    const listed = await call(t.app, 'GET', '/api/loanProduct/list', {
      token: user.token,
      query: { pageSize: '100' },
    });
    expect(listed.body.rows!.find((row) => row.id === created.id)!.identityMet).toBe(false);
    const request = await call(t.app, 'POST', '/api/userAuthRecord/userAuthApply', {
      token: user.token,
      json: {
        authLevel: 0,
        realName: 'Ada Lovelace',
        idType: 0,
        idNumber: '11010519491231002X',
        requestId: requestId(),
      },
    });
    expect(request.status, JSON.stringify(request.body)).toBe(200);
    const verified = await consoleCall(SUPPORT, 'POST', '/identity/approve', {
      id: request.body.data.id,
    });
    expect(verified.status).toBe(200);
    expect((await apply(user, created.id, '200')).status).toBe(200);

    // The loan feature's own level applies to every product.
    const open = await product({ minIdentityLevel: -1 });
    const raised = await consoleCall(ADMIN_USERNAME, 'POST', '/identity/requirements/save', {
      feature: 'loan',
      minLevel: 1,
    });
    expect(raised.status).toBe(200);
    try {
      expect((await apply(user, open.id, '200')).body).toMatchObject({
        msg: 'hint_identityRequired',
        params: [2],
      });
    } finally {
      await consoleCall(ADMIN_USERNAME, 'POST', '/identity/requirements/save', {
        feature: 'loan',
        minLevel: -1,
      });
    }
  });

  it('lends a demo account virtual funds in the demo book', async () => {
    const created = await product({ settlement: 1 });
    const user = await borrower();
    const toDemo = await call(t.app, 'GET', '/api/userInfo/changeLoginModel', {
      token: user.token,
    });
    expect(toDemo.body.data.accountType).toBe(2);
    const demoBefore = await available(user.userId, 'demo');
    const { id } = await applied(user, created.id, '1000');
    const approved = await approve(id, '1000');
    expect(approved.data.book).toBe('demo');
    expect(await available(user.userId, 'demo')).toBe(toScale(add(demoBefore, '1000'), SCALE));
    expect(await available(user.userId, 'live')).toBe('0.0000');
    const panel = await call(t.app, 'GET', '/api/loanOrder/userLoanPanelData', {
      token: user.token,
    });
    expect(panel.body.data).toMatchObject({
      activeCount: 1,
      currencies: [{ currencyName: 'USDT', principal: '1000.0000', interestDue: '0.0000' }],
    });
    const paid = await repay(user, id, '1000');
    expect(paid.body.data).toMatchObject({ repaid: true });
    // The live session sees none of it.
    await call(t.app, 'POST', '/api/userInfo/changeLoginModel', {
      token: user.token,
      form: { accountType: '0' },
    });
    const live = await call(t.app, 'GET', '/api/loanOrder/list', { token: user.token });
    expect(live.body.total).toBe(0);
    const other = await call(t.app, 'GET', '/api/loanOrder/detail', {
      token: user.token,
      query: { id: String(id) },
    });
    expect(other.body.msg).toBe('hint_loanNotFound');
  });
});
