/**
 * Welfare tasks and deposit reward tiers (rewardsApi, consoleRewardsApi): each task kind is
 * completed by its real event (identity levels approved by support, a deposit approved by finance,
 * an invitee's verification), never declared; a task pays once per user through the ledger, also
 * under 20 evaluations at once; a campaign's budget is never overspent and its tasks say when it
 * is; a tier pays its rate once per user per tier, by the tier in force when the deposit was
 * submitted; a started campaign's terms are fixed, ending one is audited; roles gate the console.
 * The ledger verifies after every test.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_USERNAME, adminLogin } from '../src/admin-login';
import { verifyLedger } from '../src/ledger/verify';
import { call, createTestApp, registerUser, testConfig, type TestApp } from './helpers';
import { adminApiCall, operatorReady } from './support/admin-api';

const PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
/** The seeded USDT TRC20 deposit channel. */
const RECHARGE_USDT_TRC20 = 2;
const USDT = 3;
const DAY_MS = 24 * 3600_000;

let t: TestApp;
let dir: string;
const tokens = { admin: '', support: '', finance: '' };
let sequence = 0;
const requestId = () => `rwd-${Date.now()}-${++sequence}`;

const console_ = (method: 'GET' | 'POST', url: string, token: string, input?: unknown) =>
  method === 'GET'
    ? adminApiCall(t.app, method, url, { token, query: input as Record<string, string> })
    : adminApiCall(t.app, method, url, { token, json: input });

interface Task {
  kind: string;
  threshold?: string;
  reward: string;
}

async function campaign(tasks: Task[], fields: Record<string, unknown> = {}) {
  const now = t.clock.now().getTime();
  const saved = await console_('POST', '/rewards/campaigns/save', tokens.finance, {
    title: { en: 'Welcome month', fr: 'Mois de bienvenue' },
    description: { en: 'Tasks for new users' },
    startTime: new Date(now).toISOString(),
    endTime: new Date(now + 30 * DAY_MS).toISOString(),
    currencyId: USDT,
    budget: '1000',
    tasks,
    ...fields,
  });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  return saved.body.data as {
    id: number;
    tasks: { id: number; kind: string }[];
    spent: string;
    startTime: string;
    endTime: string;
  };
}

async function welfare(token: string, lang = 'en') {
  const result = await call(t.app, 'GET', '/api/welfare/list', {
    token,
    headers: { 'Accept-Language': lang },
  });
  expect(result.status, JSON.stringify(result.body)).toBe(200);
  return result.body.data as {
    liveOnly: boolean;
    campaigns: {
      id: number;
      title: string;
      budgetSpent: boolean;
      status: string;
      withdrawCondition: string | null;
      tasks: { id: number; status: string; progress: string; target: string; reward: string }[];
    }[];
  };
}

async function taskOf(token: string, campaignId: number, taskId: number) {
  const found = (await welfare(token)).campaigns.find((row) => row.id === campaignId);
  return found?.tasks.find((task) => task.id === taskId);
}

async function available(userId: number, currencyId = USDT): Promise<string> {
  const { rows } = await t.db.query<{ balance: string }>(
    `SELECT balance::text FROM ledger_account WHERE book = 'live' AND owner_type = 'user'
       AND owner_id = $1 AND currency_id = $2 AND kind = 'available'`,
    [userId, currencyId],
  );
  return rows[0] ? String(Number(rows[0].balance)) : '0';
}

async function awards(token: string, query: Record<string, string> = {}) {
  const result = await call(t.app, 'GET', '/api/award/list', { token, query });
  expect(result.status).toBe(200);
  return result.body as { rows: Record<string, unknown>[]; total: number };
}

async function inMoney(token: string, amount: string) {
  const result = await call(t.app, 'POST', '/api/userRecharge/inMoney', {
    token,
    json: {
      channelId: RECHARGE_USDT_TRC20,
      amount,
      proofImage: `data:image/png;base64,${PNG_BASE64}`,
      requestId: requestId(),
    },
  });
  expect(result.status, JSON.stringify(result.body)).toBe(200);
  return result.body.data.id as number;
}

async function approveDeposit(id: number) {
  const approved = await console_('POST', '/recharges/approve', tokens.finance, { id });
  expect(approved.status, JSON.stringify(approved.body)).toBe(200);
  await t.app.services.rewards.idle();
}

async function verifyIdentity(token: string) {
  const applied = await call(t.app, 'POST', '/api/userAuthRecord/userAuthApply', {
    token,
    json: {
      authLevel: 0,
      realName: 'Ada Lovelace',
      idType: 0,
      idNumber: '11010519491231002X',
      requestId: requestId(),
    },
  });
  expect(applied.status, JSON.stringify(applied.body)).toBe(200);
  const approved = await console_('POST', '/identity/approve', tokens.support, {
    id: applied.body.data.id,
  });
  expect(approved.status, JSON.stringify(approved.body)).toBe(200);
  await t.app.services.rewards.idle();
}

beforeAll(async () => {
  t = await createTestApp();
  dir = await mkdtemp(path.join(os.tmpdir(), 'bourse-rewards-'));
  const seeded = await adminLogin(testConfig({ DATA_DIR: path.join(dir, 'data') }), t.db, t.clock);
  tokens.admin = await operatorReady(t.app, ADMIN_USERNAME, seeded.password!);
  for (const role of ['support', 'finance'] as const) {
    const created = await adminApiCall(t.app, 'POST', '/operators/create', {
      token: tokens.admin,
      json: { username: `rwd-${role}`, password: 'steady orchard lamp', roles: [role] },
    });
    expect(created.status).toBe(200);
    tokens[role] = await operatorReady(t.app, `rwd-${role}`, 'steady orchard lamp');
  }
});

// Each test sees only its own campaigns: those of earlier tests are ended.
beforeEach(async () => {
  await t.db.query(
    `UPDATE reward_campaign SET ended_at = $1, end_reason = 'test'
     WHERE ended_at IS NULL AND ends_at > $1`,
    [t.clock.now()],
  );
});

afterEach(async () => {
  await t.app.services.rewards.idle();
  expect((await verifyLedger(t.db)).problems).toEqual([]);
});

afterAll(async () => {
  await t.close();
  await rm(dir, { recursive: true, force: true });
});

describe('welfare tasks', () => {
  it('shows each task with its reward, conditions and end before the user starts', async () => {
    const created = await campaign([
      { kind: 'firstDeposit', threshold: '100', reward: '5' },
      { kind: 'volume', threshold: '1000', reward: '8' },
    ]);
    const user = await registerUser(t.app);
    const seen = (await welfare(user.token, 'fr')).campaigns.find((row) => row.id === created.id)!;
    expect(seen).toMatchObject({
      title: 'Mois de bienvenue',
      status: 'running',
      budgetSpent: false,
      withdrawCondition: null,
      tasks: [
        {
          kind: 'firstDeposit',
          threshold: '100.0000',
          reward: '5.0000',
          status: 'todo',
          target: '1',
        },
        {
          kind: 'volume',
          threshold: '1000.0000',
          reward: '8.0000',
          progress: '0.0000',
          target: '1000.0000',
        },
      ],
    });
    expect(seen).toHaveProperty('endTime', created.endTime);
  });

  it('pays the identity tasks when support approves, once, through the ledger', async () => {
    const created = await campaign([
      { kind: 'identity0', reward: '3' },
      { kind: 'identity1', reward: '7' },
    ]);
    const [level0, level1] = created.tasks;
    const user = await registerUser(t.app);
    expect((await taskOf(user.token, created.id, level0!.id))!.status).toBe('todo');
    await verifyIdentity(user.token);
    expect(await available(user.userId)).toBe('3');
    // Reading the page again, and a sweep, pay nothing more.
    expect((await taskOf(user.token, created.id, level0!.id))!.status).toBe('paid');
    await t.app.services.rewards.sweep();
    expect(await available(user.userId)).toBe('3');
    expect((await taskOf(user.token, created.id, level1!.id))!.status).toBe('todo');

    const records = await awards(user.token);
    expect(records.total).toBe(1);
    expect(records.rows[0]).toMatchObject({
      source: 1,
      taskKind: 'identity0',
      campaignTitle: 'Welcome month',
      amount: '3.0000',
      currency: 'USDT',
      paid: true,
      entryId: expect.any(Number),
    });
    const notices = await call(t.app, 'GET', '/api/notification/list', {
      token: user.token,
      query: { pageSize: '50' },
    });
    const rewardNotices = notices.body.rows!.filter(
      (row: { type: string }) => row.type === 'rewardPaid',
    );
    expect(rewardNotices).toHaveLength(1);
    expect(rewardNotices[0]).toMatchObject({
      params: ['3.0000', 'USDT'],
      link: { route: 'award', query: {} },
    });
    const { rows } = await t.db.query<{ entry_type: string; ref_type: string }>(
      'SELECT entry_type, ref_type FROM ledger_entry WHERE id = $1',
      [records.rows[0]!.entryId],
    );
    expect(rows[0]).toEqual({ entry_type: 'reward', ref_type: 'reward_task' });
  });

  it('pays a first deposit of at least the threshold when finance approves it', async () => {
    const created = await campaign([{ kind: 'firstDeposit', threshold: '100', reward: '5' }]);
    const user = await registerUser(t.app);
    await approveDeposit(await inMoney(user.token, '60'));
    expect((await taskOf(user.token, created.id, created.tasks[0]!.id))!.status).toBe('todo');
    await approveDeposit(await inMoney(user.token, '150'));
    expect(await available(user.userId)).toBe(String(60 + 150 + 5));
    expect((await taskOf(user.token, created.id, created.tasks[0]!.id))!.status).toBe('paid');
  });

  it('pays the inviter when an invitee verifies identity', async () => {
    const created = await campaign([{ kind: 'invite', reward: '4' }]);
    const inviter = await registerUser(t.app);
    const info = await call(t.app, 'GET', '/api/userInfo/getUserInfo', { token: inviter.token });
    const registered = await call(t.app, 'POST', '/api/userInfo/reg', {
      form: {
        regType: '1',
        userAccount: `invitee${Date.now()}@example.com`,
        userPwd: 'Tidewater58',
        inviteCode: info.body.data.inviteCode,
      },
      // Another browser than the inviter's (the same one is a self-referral).
      headers: { 'user-agent': 'Mozilla/5.0 (Linux; Android 14) Invitee' },
    });
    expect(registered.status, JSON.stringify(registered.body)).toBe(200);
    const invitee = registered.body.data.token as string;
    expect((await taskOf(inviter.token, created.id, created.tasks[0]!.id))!.status).toBe('todo');
    await verifyIdentity(invitee);
    expect(await available(inviter.userId)).toBe('4');
    expect((await taskOf(inviter.token, created.id, created.tasks[0]!.id))!.status).toBe('paid');
  });

  it('pays once and never twice under 20 parallel completions', async () => {
    const created = await campaign([{ kind: 'identity0', reward: '2.5' }], { budget: '100' });
    const user = await registerUser(t.app);
    // One user verified through the event; another whose level is set, evaluated and completed
    // 20 times at once.
    await verifyIdentity(user.token);
    const rewards = t.app.services.rewards;
    const other = await registerUser(t.app);
    await t.db.query('UPDATE app_user SET auth_level = 0 WHERE id = $1', [other.userId]);
    const [task] = created.tasks;
    const taskRow = {
      id: task!.id,
      campaign_id: created.id,
      kind: 'identity0',
      threshold: '0',
      reward: '2.5',
      sort: 0,
    };
    const outcomes = await Promise.all([
      ...Array.from({ length: 10 }, () => rewards.evaluate(other.userId).then(() => 'evaluated')),
      ...Array.from({ length: 10 }, () =>
        rewards.complete(taskRow, other.userId, undefined).then((outcome) => outcome ?? 'none'),
      ),
    ]);
    expect(outcomes.filter((outcome) => outcome === 'paid').length).toBeLessThanOrEqual(1);
    expect(await available(other.userId)).toBe('2.5');
    expect(await available(user.userId)).toBe('2.5');
    const { rows } = await t.db.query<{ completions: number; entries: number; spent: string }>(
      `SELECT (SELECT count(*)::int FROM reward_completion WHERE task_id = $1) AS completions,
              (SELECT count(*)::int FROM ledger_entry WHERE ref_type = 'reward_task' AND ref_id = $1::text) AS entries,
              (SELECT spent::text FROM reward_campaign WHERE id = $2) AS spent`,
      [task!.id, created.id],
    );
    expect(rows[0]).toMatchObject({ completions: 2, entries: 2 });
    expect(Number(rows[0]!.spent)).toBe(5);
  });

  it('never spends more than the budget, and says when it is spent', async () => {
    const created = await campaign([{ kind: 'identity0', reward: '10' }], { budget: '25' });
    const users = await Promise.all([1, 2, 3].map(() => registerUser(t.app)));
    await t.db.query('UPDATE app_user SET auth_level = 0 WHERE id = ANY($1::bigint[])', [
      users.map((user) => user.userId),
    ]);
    await Promise.all(users.map((user) => t.app.services.rewards.evaluate(user.userId)));
    const balances = await Promise.all(users.map((user) => available(user.userId)));
    expect([...balances].sort()).toEqual(['0', '10', '10']);
    const unpaid = users[balances.indexOf('0')]!;
    expect((await taskOf(unpaid.token, created.id, created.tasks[0]!.id))!.status).toBe(
      'budgetSpent',
    );
    expect((await awards(unpaid.token)).rows[0]).toMatchObject({ paid: false, amount: '0.0000' });
    const newcomer = await registerUser(t.app);
    const seen = (await welfare(newcomer.token)).campaigns.find((row) => row.id === created.id)!;
    expect(seen.budgetSpent).toBe(true);
    expect(seen.tasks[0]!.status).toBe('budgetSpent');
    const listed = await console_('GET', '/rewards/campaigns', tokens.finance, {});
    const row = listed.body.rows!.find((item: { id: number }) => item.id === created.id);
    expect(row).toMatchObject({ budget: '25.0000', spent: '20.0000' });
    expect(row.tasks[0]).toMatchObject({ completions: 3, paidCount: 2 });
  });

  it('counts nothing of the demo account, and says so in a demo session', async () => {
    const user = await registerUser(t.app);
    const switched = await call(t.app, 'GET', '/api/userInfo/changeLoginModel', {
      token: user.token,
    });
    expect(switched.status, JSON.stringify(switched.body)).toBe(200);
    const seen = await welfare(user.token);
    expect(seen.liveOnly).toBe(true);
  });

  it('shows upcoming tasks without paying them, and ended ones as ended', async () => {
    const now = t.clock.now().getTime();
    const later = await campaign([{ kind: 'identity0', reward: '1' }], {
      startTime: new Date(now + DAY_MS).toISOString(),
      endTime: new Date(now + 2 * DAY_MS).toISOString(),
    });
    const user = await registerUser(t.app);
    await verifyIdentity(user.token);
    const before = await welfare(user.token);
    const upcoming = before.campaigns.find((row) => row.id === later.id)!;
    expect(upcoming).toMatchObject({ status: 'upcoming', tasks: [{ status: 'upcoming' }] });
    const ended = await console_('POST', '/rewards/campaigns/end', tokens.finance, {
      id: later.id,
      reason: 'Replaced by the spring campaign',
    });
    expect(ended.status, JSON.stringify(ended.body)).toBe(200);
    const after = (await welfare(user.token)).campaigns.find((row) => row.id === later.id)!;
    expect(after).toMatchObject({ status: 'ended', tasks: [{ status: 'ended' }] });
    await t.app.services.rewards.evaluate(user.userId);
    expect(await available(user.userId)).toBe('0');
  });
});

describe('the console', () => {
  it("fixes a started campaign's terms, lets the budget grow, and audits the end", async () => {
    const created = await campaign([{ kind: 'firstTrade', reward: '2' }], {
      withdrawCondition: { en: 'Trade 100 USDT before withdrawing the reward' },
    });
    const body = {
      id: created.id,
      title: { en: 'Welcome month (corrected)' },
      description: { en: 'Tasks for new users' },
      withdrawCondition: { en: 'Trade 100 USDT before withdrawing the reward' },
      startTime: created.startTime,
      endTime: created.endTime,
      currencyId: USDT,
      budget: '1000',
      tasks: [{ kind: 'firstTrade', reward: '2' }],
    };
    const retitled = await console_('POST', '/rewards/campaigns/save', tokens.finance, body);
    expect(retitled.status, JSON.stringify(retitled.body)).toBe(200);
    const user = await registerUser(t.app);
    const seen = (await welfare(user.token)).campaigns.find((row) => row.id === created.id)!;
    expect(seen.withdrawCondition).toBe('Trade 100 USDT before withdrawing the reward');

    for (const change of [
      { tasks: [{ kind: 'firstTrade', reward: '3' }] },
      {
        tasks: [
          { kind: 'firstTrade', reward: '2' },
          { kind: 'identity0', reward: '1' },
        ],
      },
      { endTime: new Date(Date.parse(created.endTime) + DAY_MS).toISOString() },
      { withdrawCondition: undefined },
    ]) {
      const refused = await console_('POST', '/rewards/campaigns/save', tokens.finance, {
        ...body,
        ...change,
      });
      expect(refused.status).toBe(422);
      expect(refused.body.msg).toBe('hint_campaignStarted');
    }
    const smaller = await console_('POST', '/rewards/campaigns/save', tokens.finance, {
      ...body,
      budget: '999',
    });
    expect(smaller.body.msg).toBe('hint_campaignBudgetReduced');
    const larger = await console_('POST', '/rewards/campaigns/save', tokens.finance, {
      ...body,
      budget: '1500',
    });
    expect(larger.body.data).toMatchObject({ budget: '1500.0000' });

    const ended = await console_('POST', '/rewards/campaigns/end', tokens.admin, {
      id: created.id,
      reason: 'Abuse of the first-trade task',
    });
    expect(ended.body).toMatchObject({ msg: 'hint_success', data: { status: 'ended' } });
    const again = await console_('POST', '/rewards/campaigns/end', tokens.admin, {
      id: created.id,
      reason: 'Again',
    });
    expect(again.body.msg).toBe('hint_48');
    const edit = await console_('POST', '/rewards/campaigns/save', tokens.finance, body);
    expect(edit.body.msg).toBe('hint_campaignEnded');

    const audit = await t.db.query<{ action: string }>(
      `SELECT action FROM audit_log WHERE target_type = 'reward_campaign' AND target_id = $1 ORDER BY id`,
      [String(created.id)],
    );
    expect(audit.rows.map((row) => row.action)).toEqual([
      'rewardCampaign.create',
      'rewardCampaign.update',
      'rewardCampaign.update',
      'rewardCampaign.end',
    ]);
  });

  it('refuses bad campaigns with a clear hint on the field', async () => {
    const now = t.clock.now().getTime();
    const bad = await console_('POST', '/rewards/campaigns/save', tokens.finance, {
      title: { fr: 'Sans anglais' },
      startTime: new Date(now + DAY_MS).toISOString(),
      endTime: new Date(now).toISOString(),
      currencyId: USDT,
      budget: '10',
      tasks: [{ kind: 'volume', reward: '1' }],
    });
    expect(bad.status).toBe(400);
    const text = JSON.stringify(bad.body);
    expect(text).toMatch(
      /hint_langEnglishRequired|hint_campaignEndBeforeStart|hint_rewardThresholdRequired/,
    );
    const currency = await console_('POST', '/rewards/campaigns/save', tokens.finance, {
      title: { en: 'X' },
      startTime: new Date(now).toISOString(),
      endTime: new Date(now + DAY_MS).toISOString(),
      currencyId: 9999,
      budget: '10',
      tasks: [{ kind: 'firstTrade', reward: '1' }],
    });
    expect(currency.body.msg).toBe('hint_currencyUnknown');
  });

  it('is for admins and finance only', async () => {
    const listed = await console_('GET', '/rewards/campaigns', tokens.support, {});
    expect(listed.status).toBe(403);
    const records = await console_('GET', '/rewards/records', tokens.support, {});
    expect(records.status).toBe(403);
  });
});

describe('deposit reward tiers', () => {
  it('pays the rate once per user per tier, by the tier in force at submission', async () => {
    const low = await console_('POST', '/rewards/tiers/save', tokens.finance, {
      currencyId: USDT,
      minAmount: '50',
      maxAmount: '500',
      rate: '0.01',
    });
    expect(low.status, JSON.stringify(low.body)).toBe(200);
    const high = await console_('POST', '/rewards/tiers/save', tokens.finance, {
      currencyId: USDT,
      minAmount: '500',
      rate: '0.02',
    });
    expect(high.status, JSON.stringify(high.body)).toBe(200);
    const overlap = await console_('POST', '/rewards/tiers/save', tokens.finance, {
      currencyId: USDT,
      minAmount: '100',
      maxAmount: '200',
      rate: '0.5',
    });
    expect(overlap.body.msg).toBe('hint_tierOverlap');

    const shown = await call(t.app, 'GET', '/api/welfare/depositTiers', {
      query: { currencyId: String(USDT) },
    });
    expect(shown.body.rows).toEqual([
      expect.objectContaining({
        minAmount: '50.0000',
        maxAmount: '500.0000',
        rate: '0.01',
        earned: false,
      }),
      expect.objectContaining({ minAmount: '500.0000', maxAmount: null, rate: '0.02' }),
    ]);

    const user = await registerUser(t.app);
    await approveDeposit(await inMoney(user.token, '200'));
    expect(await available(user.userId)).toBe('202');
    // The same tier again pays nothing; a deposit under every tier neither.
    await approveDeposit(await inMoney(user.token, '300'));
    await approveDeposit(await inMoney(user.token, '20'));
    expect(await available(user.userId)).toBe('522');

    // Submitted under the 2 % tier; the tier is raised to 5 % before the approval: 2 % is paid.
    const pending = await inMoney(user.token, '1000');
    t.clock.advance(1000);
    const raised = await console_('POST', '/rewards/tiers/save', tokens.finance, {
      id: high.body.data.id,
      currencyId: USDT,
      minAmount: '500',
      rate: '0.05',
    });
    expect(raised.status, JSON.stringify(raised.body)).toBe(200);
    expect(raised.body.data.lineageId).toBe(high.body.data.id);
    await approveDeposit(pending);
    expect(await available(user.userId)).toBe(String(522 + 1000 + 20));
    // …and the new version is the same tier: paid once.
    await approveDeposit(await inMoney(user.token, '600'));
    expect(await available(user.userId)).toBe(String(1542 + 600));

    const mine = await call(t.app, 'GET', '/api/welfare/depositTiers', {
      token: user.token,
      query: { currencyId: String(USDT) },
    });
    expect(
      mine.body.rows!.map((row: { earned: boolean; rate: string }) => [row.rate, row.earned]),
    ).toEqual([
      ['0.01', true],
      ['0.05', true],
    ]);
    const records = await awards(user.token, { source: '2' });
    expect(records.rows.map((row) => [row.amount, row.depositAmount, row.rate])).toEqual([
      ['20.0000', '1000.0000', '0.02'],
      ['2.0000', '200.0000', '0.01'],
    ]);
    const history = await console_('GET', '/rewards/records', tokens.finance, {
      userAccount: user.email,
    });
    expect(history.body.total).toBe(2);
    const unknown = await console_('GET', '/rewards/records', tokens.finance, {
      userAccount: 'nobody@example.com',
    });
    expect(unknown.body.msg).toBe('hint_userNotFound');

    for (const tier of [low.body.data.id, raised.body.data.id]) {
      const retired = await console_('POST', '/rewards/tiers/retire', tokens.finance, { id: tier });
      expect(retired.status).toBe(200);
    }
    const none = await call(t.app, 'GET', '/api/welfare/depositTiers', {});
    expect(none.body.rows).toEqual([]);
  });
});
