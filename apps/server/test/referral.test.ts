/**
 * Team and referral (referralApi, consoleReferralApi): the ancestry up to three levels (one
 * indexed range per level: EXPLAIN shows the level index on PostgreSQL), self-referral refused at
 * sign-up and no user their own ancestor, commissions from the fees of the live book exact per
 * level at the terms in force when the fee was charged (rounded down at the currency's scale), a
 * rate change never backwards, the demo book earning nothing, a frozen inviter's commissions
 * withheld (and the user told), the worker paying each fee once under two concurrent workers, and
 * no member's balance shown to another user. The ledger verifies after every test.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_USERNAME, adminLogin } from '../src/admin-login';
import { ManualClock } from '../src/lib/clock';
import { DEFAULT_CATALOGUE } from '../src/market/catalogue';
import { verifyLedger } from '../src/ledger/verify';
import { mul, toScale } from '@bourse/shared';
import { CommissionWorker } from '../src/modules/referral';
import { ScriptedFeed } from './support/scripted-feed';
import {
  call,
  createTestApp,
  createTestDatabase,
  deposit,
  GOOD_PASSWORD,
  testConfig,
  uniqueEmail,
  type TestApp,
  type TestDatabase,
} from './helpers';
import { adminApiCall, operatorReady } from './support/admin-api';

/** A Wednesday, 10:00 in New York. */
const NOW = Date.parse('2026-11-18T15:00:00Z');
const USDT = 3;

let database: TestDatabase;
let t: TestApp;
let feed: ScriptedFeed;
let clock: ManualClock;
let dir: string;
let admin = '';
let support = '';
let sequence = 0;
const requestId = () => `ref-${Date.now()}-${++sequence}`;

interface Member {
  token: string;
  userId: number;
  email: string;
  inviteCode: string;
  agent: string;
}

/** Registers a user (with an invite code when given) from a browser of its own. */
async function join(inviteCode?: string, agent = `Browser ${++sequence}`): Promise<Member> {
  const email = uniqueEmail('team');
  const result = await call(t.app, 'POST', '/api/userInfo/reg', {
    form: {
      regType: '1',
      userAccount: email,
      userPwd: GOOD_PASSWORD,
      ...(inviteCode ? { inviteCode } : {}),
    },
    headers: { 'user-agent': agent },
  });
  expect(result.status, JSON.stringify(result.body)).toBe(200);
  const info = result.body.data.userInfo;
  return {
    token: result.body.data.token,
    userId: info.id,
    email,
    inviteCode: info.inviteCode,
    agent,
  };
}

const worker = () => new CommissionWorker({ db: t.db, clock });

async function setTerms(levels: number, rates: string[], token = admin) {
  const body: Record<string, unknown> = { levels };
  rates.forEach((rate, at) => (body[`rate${at + 1}`] = rate));
  return adminApiCall(t.app, 'POST', '/referral/terms/save', { token, json: body });
}

function tick(price: string) {
  clock.advance(1000);
  return feed.tick('BTCUSDT', price, clock.now().getTime());
}

async function openContract(member: Member, quantity = '0.0123') {
  const opened = await call(t.app, 'POST', '/api/contractPosition/open', {
    token: member.token,
    json: {
      productType: 2,
      productCode: 'BTCUSDT',
      orderDirection: 1,
      leverage: 10,
      quantity,
      requestId: requestId(),
    },
  });
  expect(opened.status, JSON.stringify(opened.body)).toBe(200);
  return opened.body.data as { id: number; openFee: string; orderNo: string };
}

async function commissionsOf(member: Member) {
  const result = await call(t.app, 'GET', '/api/userTeam/commissionRecordList', {
    token: member.token,
    query: { pageSize: '100' },
  });
  expect(result.status).toBe(200);
  return result.body.rows as {
    level: number;
    sourceType: string;
    sourceId: number;
    rate: string;
    fee: string;
    amount: string;
    status: number;
    memberAccount: string;
  }[];
}

async function available(userId: number, currencyId = USDT): Promise<string> {
  const { rows } = await t.db.query<{ balance: string }>(
    `SELECT balance::text FROM ledger_account
      WHERE owner_type = 'user' AND owner_id = $1 AND currency_id = $2 AND kind = 'available' AND book = 'live'`,
    [userId, currencyId],
  );
  return rows[0]?.balance ?? '0';
}

const same = (a: string, b: string) =>
  Number(a) === Number(b) &&
  a.replace(/0+$/, '').replace(/\.$/, '') === b.replace(/0+$/, '').replace(/\.$/, '');

beforeAll(async () => {
  database = await createTestDatabase();
  clock = new ManualClock(new Date(NOW));
  feed = new ScriptedFeed();
  t = await createTestApp({
    database,
    clock,
    // The tests run the worker themselves.
    env: { MARKET_FEED: 'simulated', MARKET_SEED: 'referral', REFERRAL_WORKER_MS: '0' },
    catalogue: [DEFAULT_CATALOGUE.find((product) => product.code === 'BTCUSDT')!],
    history: { days: 2, minuteDays: 1 },
    feed: () => feed,
  });
  feed.tick('BTCUSDT', '100000.00', NOW);
  dir = await mkdtemp(path.join(os.tmpdir(), 'bourse-referral-'));
  const seeded = await adminLogin(testConfig({ DATA_DIR: path.join(dir, 'data') }), t.db, t.clock);
  admin = await operatorReady(t.app, ADMIN_USERNAME, seeded.password!);
  const created = await adminApiCall(t.app, 'POST', '/operators/create', {
    token: admin,
    json: { username: 'ref-support', password: 'steady orchard lamp', roles: ['support'] },
  });
  expect(created.status).toBe(200);
  support = await operatorReady(t.app, 'ref-support', 'steady orchard lamp');
});

afterEach(async () => {
  expect((await verifyLedger(database.db)).problems).toEqual([]);
});

afterAll(async () => {
  await t.close();
  await database.dispose();
  await rm(dir, { recursive: true, force: true });
});

describe('team', () => {
  it('stores the ancestry up to three levels and lists each level, masked, without balances', async () => {
    const a = await join();
    const b = await join(a.inviteCode);
    const c = await join(b.inviteCode);
    const d = await join(c.inviteCode);
    const e = await join(d.inviteCode);
    const { rows } = await t.db.query<{ ancestor_id: number; depth: number }>(
      'SELECT ancestor_id, depth FROM referral_ancestry WHERE descendant_id = $1 ORDER BY depth',
      [e.userId],
    );
    expect(rows).toEqual([
      { ancestor_id: d.userId, depth: 1 },
      { ancestor_id: c.userId, depth: 2 },
      { ancestor_id: b.userId, depth: 3 },
    ]);
    await deposit(t.db, b.userId, '500');
    for (const [level, member] of [
      [1, b],
      [2, c],
      [3, d],
    ] as const) {
      const page = await call(t.app, 'GET', '/api/userTeam/queryLowerTeamInfo', {
        token: a.token,
        query: { teamLevel: String(level) },
      });
      expect(page.status).toBe(200);
      expect(page.body.total).toBe(1);
      const row = page.body.rows![0];
      expect(Object.keys(row).sort()).toEqual(['firstDeposit', 'joinTime', 'level', 'userAccount']);
      expect(row.level).toBe(level);
      expect(row.userAccount).not.toBe(member.email);
      expect(row.userAccount).toMatch(/^te\*\*\*@example\.com$/);
    }
    const four = await call(t.app, 'GET', '/api/userTeam/queryLowerTeamInfo', {
      token: a.token,
      query: { teamLevel: '4' },
    });
    expect(four.status).toBe(400);
    const dashboard = await call(t.app, 'GET', '/api/userTeam/myTeamDataDashboard', {
      token: a.token,
    });
    expect(dashboard.status).toBe(200);
    expect(dashboard.body.data).toMatchObject({
      teamSize: 3,
      directCount: 1,
      levelCounts: [1, 1, 1],
      frozen: false,
    });
    expect(JSON.stringify(dashboard.body.data)).not.toMatch(/balance/i);
  });

  it('reads a level as one range of the level index', async () => {
    const sql = `EXPLAIN SELECT * FROM (${'SELECT a.depth, u.user_account FROM referral_ancestry a JOIN app_user u ON u.id = a.descendant_id WHERE a.ancestor_id = 1 AND a.depth = 2 ORDER BY a.descendant_id DESC LIMIT 20'}) x`;
    const plan = await t.db.transaction(async (tx) => {
      // A small table is cheaper to scan: the planner is told not to, to show the index serves.
      await tx.query('SET LOCAL enable_seqscan = off');
      const { rows } = await tx.query<Record<string, string>>(sql);
      return rows.map((row) => Object.values(row)[0]).join('\n');
    });
    expect(plan).toContain('referral_ancestry_level_idx');
  });

  it('refuses a user as their own ancestor, and self-referral from the inviter browser', async () => {
    const a = await join();
    await expect(
      t.db.query(
        'INSERT INTO referral_ancestry (ancestor_id, descendant_id, depth) VALUES ($1, $1, 1)',
        [a.userId],
      ),
    ).rejects.toThrow(/referral_ancestry_not_self/);
    const self = await call(t.app, 'POST', '/api/userInfo/reg', {
      form: {
        regType: '1',
        userAccount: uniqueEmail('self'),
        userPwd: GOOD_PASSWORD,
        inviteCode: a.inviteCode,
      },
      headers: { 'user-agent': a.agent },
    });
    expect(self.status).toBe(422);
    expect(self.body).toMatchObject({ msg: 'hint_inviteSelfReferral', params: ['inviteCode'] });
    // Another browser may use the code.
    await join(a.inviteCode);
  });
});

describe('commissions', () => {
  it('publishes the terms, refuses bad ones, and keeps them to admin and finance', async () => {
    const none = await call(t.app, 'GET', '/api/userTeam/commissionTerms');
    expect(none.body.data).toMatchObject({ effectiveFrom: null, rates: [] });
    expect((await setTerms(3, ['0.6'])).body.msg).toBe('hint_referralRateTooHigh');
    expect((await setTerms(3, ['0.5', '0.5', '0.1'])).body.msg).toBe('hint_referralRatesTotal');
    expect((await setTerms(1, ['0.2', '0.1'])).body.msg).toBe('hint_referralRateBeyondLevels');
    expect((await setTerms(3, ['0.2', '0.1', '0.05'], support)).status).toBe(403);
    const saved = await setTerms(3, ['0.2', '0.1', '0.05']);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.data.current).toMatchObject({ levels: 3, rates: ['0.2', '0.1', '0.05'] });
    const terms = await call(t.app, 'GET', '/api/userTeam/commissionTerms');
    expect(terms.body.data).toMatchObject({ levels: 3, rates: ['0.2', '0.1', '0.05'] });
    const audit = await t.db.query<{ action: string }>(
      "SELECT action FROM audit_log WHERE action = 'referral.terms'",
    );
    expect(audit.rows).toHaveLength(1);
  });

  it('pays each level its share of a live fee, rounded down, once', async () => {
    const a = await join();
    const b = await join(a.inviteCode);
    const c = await join(b.inviteCode);
    const d = await join(c.inviteCode);
    const e = await join(d.inviteCode);
    await deposit(t.db, d.userId, '10000');
    await deposit(t.db, e.userId, '10000');
    const before = await Promise.all([a, b, c, d].map((member) => available(member.userId)));
    // 0.0123 × 100,000 × 0.0005 = 0.615 USDT.
    const position = await openContract(d);
    expect(same(position.openFee, '0.615')).toBe(true);
    expect(await worker().runOnce()).toBe(1);
    expect(await worker().runOnce()).toBe(0);
    const paid = await Promise.all([a, b, c].map((member) => available(member.userId)));
    // Level 1 (c) 20 % = 0.123, level 2 (b) 10 % = 0.0615, level 3 (a) 5 % = 0.03075 -> 0.0307.
    expect(Number(paid[2]) - Number(before[2])).toBeCloseTo(0.123, 8);
    expect(Number(paid[1]) - Number(before[1])).toBeCloseTo(0.0615, 8);
    expect(Number(paid[0]) - Number(before[0])).toBeCloseTo(0.0307, 8);
    const records = await commissionsOf(a);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      level: 3,
      sourceType: 'contract_open',
      sourceId: position.id,
      rate: '0.05',
      fee: '0.6150',
      amount: '0.0307',
      status: 1,
    });
    expect(records[0]!.memberAccount).not.toBe(d.email);
    // The ledger entry: from the fee account of the payer's shard to the three inviters.
    const { rows: postings } = await t.db.query<{
      owner_type: string;
      owner_id: number;
      amount: string;
    }>(
      `SELECT a.owner_type, a.owner_id, p.amount::text FROM ledger_entry e
         JOIN ledger_posting p ON p.entry_id = e.id JOIN ledger_account a ON a.id = p.account_id
        WHERE e.entry_type = 'referral_commission' AND e.ref_id = (
          SELECT id::text FROM referral_fee_charge WHERE source_type = 'contract_open' AND source_id = $1)
        ORDER BY p.amount`,
      [position.id],
    );
    expect(postings.map((row) => [row.owner_type, row.owner_id, Number(row.amount)])).toEqual([
      ['platform', d.userId % 16, -0.2152],
      ['user', a.userId, 0.0307],
      ['user', b.userId, 0.0615],
      ['user', c.userId, 0.123],
    ]);

    // E's fee: d, c and b are its three levels; a is beyond them.
    await openContract(e);
    await worker().runOnce();
    expect(await commissionsOf(a)).toHaveLength(1);
    expect((await commissionsOf(b)).map((row) => row.level)).toEqual([3, 2]);

    // The close fee counts too.
    tick('100500.00');
    await t.app.services.triggers!.idle();
    const closed = await call(t.app, 'POST', '/api/contractPosition/close', {
      token: d.token,
      json: { id: position.id, requestId: requestId() },
    });
    expect(closed.status).toBe(200);
    await worker().runOnce();
    expect(
      (await commissionsOf(c))
        .filter((row) => row.sourceId === position.id)
        .map((row) => row.sourceType),
    ).toEqual(['contract_close', 'contract_open']);
    // Back to the price the other tests' fees are figured at.
    tick('100000.00');
    await t.app.services.triggers!.idle();
    const dashboard = await call(t.app, 'GET', '/api/userTeam/myTeamDataDashboard', {
      token: c.token,
    });
    expect(dashboard.body.data.commissionTotal).toHaveLength(1);
    expect(dashboard.body.data.commissionTotal[0].currencyName).toBe('USDT');
  });

  it('pays spot and coin-to-coin fills, never the demo book', async () => {
    const a = await join();
    const b = await join(a.inviteCode);
    await deposit(t.db, b.userId, '10000');
    const spot = await call(t.app, 'POST', '/api/spotTradeOrder/addSpotTradeOrder', {
      token: b.token,
      json: {
        productType: 2,
        productCode: 'BTCUSDT',
        orderType: 1,
        quantity: '0.0100',
        requestId: requestId(),
      },
    });
    expect(spot.status, JSON.stringify(spot.body)).toBe(200);
    const bibi = await call(t.app, 'POST', '/api/bibiTradeOrder/buy', {
      token: b.token,
      json: { productCode: 'BTCUSDT', orderType: 1, quantity: '0.0200', requestId: requestId() },
    });
    expect(bibi.status, JSON.stringify(bibi.body)).toBe(200);
    const demo = await call(t.app, 'GET', '/api/userInfo/changeLoginModel', {
      token: b.token,
      query: { accountType: '2' },
    });
    expect(demo.status).toBe(200);
    await openContract(b, '0.5');
    await worker().runOnce();
    const records = await commissionsOf(a);
    expect(records.map((row) => row.sourceType).sort()).toEqual(['bibi', 'spot']);
    const { rows } = await t.db.query<{ charges: number }>(
      'SELECT count(*)::int AS charges FROM referral_fee_charge WHERE payer_id = $1',
      [b.userId],
    );
    expect(rows[0]!.charges).toBe(2);
  });

  it('applies a rate change to later fees only', async () => {
    const a = await join();
    const b = await join(a.inviteCode);
    await deposit(t.db, b.userId, '10000');
    await openContract(b); // charged at 20 %
    clock.advance(1000);
    expect((await setTerms(2, ['0.3', '0.1'])).status).toBe(200);
    await openContract(b); // charged at 30 %
    await worker().runOnce();
    const records = await commissionsOf(a);
    expect(records.map((row) => [row.rate, row.amount])).toEqual([
      ['0.3', '0.1845'],
      ['0.2', '0.1230'],
    ]);
    // A clock behind the latest terms never starts new ones before them.
    clock.advance(-60_000);
    const again = await setTerms(3, ['0.2', '0.1', '0.05']);
    expect(again.status).toBe(200);
    const [latest, previous] = again.body.data.history;
    expect(Date.parse(latest.effectiveFrom)).toBeGreaterThan(Date.parse(previous.effectiveFrom));
    clock.advance(120_000);
  });

  it('withholds a frozen inviter commissions and tells the user', async () => {
    const a = await join();
    const b = await join(a.inviteCode);
    const c = await join(b.inviteCode);
    await deposit(t.db, c.userId, '10000');
    const frozen = await adminApiCall(t.app, 'POST', '/referral/freeze', {
      token: admin,
      json: { userId: b.userId, reason: 'Accounts farmed from one device' },
    });
    expect(frozen.status, JSON.stringify(frozen.body)).toBe(200);
    const twice = await adminApiCall(t.app, 'POST', '/referral/freeze', {
      token: admin,
      json: { userId: b.userId, reason: 'again' },
    });
    expect(twice.body.msg).toBe('hint_48');
    const before = await available(b.userId);
    await openContract(c);
    await worker().runOnce();
    expect(await available(b.userId)).toBe(before);
    const records = await commissionsOf(b);
    expect(records).toEqual([expect.objectContaining({ level: 1, status: 2, amount: '0.1230' })]);
    expect((await commissionsOf(a))[0]).toMatchObject({ level: 2, status: 1, amount: '0.0615' });
    const notes = await call(t.app, 'GET', '/api/notification/list', { token: b.token });
    expect(notes.body.rows![0]).toMatchObject({
      type: 'referralFrozen',
      params: ['Accounts farmed from one device'],
    });
    const user = await adminApiCall(t.app, 'GET', '/referral/user', {
      token: admin,
      query: { userId: String(b.userId) },
    });
    expect(user.body.data).toMatchObject({
      levelCounts: [1, 0, 0],
      commissionWithheld: [{ currencyName: 'USDT', amount: '0.1230' }],
      freeze: { reason: 'Accounts farmed from one device' },
    });
    const unfrozen = await adminApiCall(t.app, 'POST', '/referral/unfreeze', {
      token: admin,
      json: { userId: b.userId, reason: 'Cleared after review' },
    });
    expect(unfrozen.status).toBe(200);
    const audit = await t.db.query<{ action: string }>(
      "SELECT action FROM audit_log WHERE action LIKE 'referral.%freeze' ORDER BY id",
    );
    expect(audit.rows.map((row) => row.action)).toEqual(['referral.freeze', 'referral.unfreeze']);
  });

  it('pays each fee once under two concurrent workers', async () => {
    const a = await join();
    const b = await join(a.inviteCode);
    await deposit(t.db, b.userId, '100000');
    for (let i = 0; i < 6; i++) await openContract(b);
    const before = await available(a.userId);
    const [one, two] = await Promise.all([worker().runOnce(), worker().runOnce()]);
    expect(one + two).toBe(6);
    const records = await commissionsOf(a);
    expect(records).toHaveLength(6);
    expect(Number(await available(a.userId)) - Number(before)).toBeCloseTo(6 * 0.123, 8);
    const { rows } = await t.db.query<{ entries: number }>(
      `SELECT count(*)::int AS entries FROM ledger_entry e
        WHERE e.entry_type = 'referral_commission' AND e.ref_id IN (
          SELECT id::text FROM referral_fee_charge WHERE payer_id = $1)`,
      [b.userId],
    );
    expect(rows[0]!.entries).toBe(6);
  });

  it('pays exactly per level in a seeded simulation of users inviting and trading', async () => {
    // A small deterministic generator: the same tree and trades on every run.
    let seed = 22;
    const next = (below: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % below;
    };
    const members: Member[] = [];
    const inviterOf = new Map<number, number>();
    for (let at = 0; at < 24; at++) {
      const inviter = at > 0 && next(5) > 0 ? members[next(members.length)] : undefined;
      const member = await join(inviter?.inviteCode);
      if (inviter) inviterOf.set(member.userId, inviter.userId);
      members.push(member);
    }
    const traders = members.filter((member) => inviterOf.has(member.userId));
    for (const trader of traders) {
      await deposit(t.db, trader.userId, '5000');
      await openContract(trader, `0.0${1 + next(9)}${next(10)}`);
    }
    await worker().runOnce();
    const terms = (await call(t.app, 'GET', '/api/userTeam/commissionTerms')).body.data as {
      levels: number;
      rates: string[];
    };
    const { rows: charges } = await t.db.query<{ id: number; payer_id: number; fee: string }>(
      'SELECT id, payer_id, fee::text FROM referral_fee_charge WHERE payer_id = ANY($1) ORDER BY id',
      [traders.map((trader) => trader.userId)],
    );
    expect(charges).toHaveLength(traders.length);
    for (const charge of charges) {
      const expected: [number, number, string][] = [];
      let inviter = inviterOf.get(charge.payer_id);
      for (let level = 1; inviter !== undefined && level <= terms.levels; level++) {
        const amount = toScale(mul(charge.fee, terms.rates[level - 1]!), 4, 'down');
        if (Number(amount) > 0) expected.push([level, inviter, amount]);
        inviter = inviterOf.get(inviter);
      }
      const { rows } = await t.db.query<{ level: number; inviter_id: number; amount: string }>(
        `SELECT level, inviter_id, amount::text FROM referral_commission WHERE charge_id = $1
          ORDER BY level`,
        [charge.id],
      );
      expect(
        rows.map((row) => [row.level, row.inviter_id, toScale(row.amount, 4)]),
        `charge ${charge.id}`,
      ).toEqual(expected);
    }
  });

  it('reports top inviters and commissions per day', async () => {
    const report = await adminApiCall(t.app, 'GET', '/referral/report', { token: admin });
    expect(report.status).toBe(200);
    expect(report.body.data.topInviters.length).toBeGreaterThan(0);
    expect(report.body.data.perDay[0]).toMatchObject({ currencyName: 'USDT' });
    const list = await adminApiCall(t.app, 'GET', '/referral/commissions', {
      token: admin,
      query: { pageSize: '5' },
    });
    expect(list.body.rows).toHaveLength(5);
    expect(
      list.body.rows![0].entryId === null || typeof list.body.rows![0].entryId === 'number',
    ).toBe(true);
  });
});
