/**
 * Copy trading (copyTradingApi, consoleCopyTradingApi, the worker, the daily settlement) with a
 * scripted feed: applying and approval (audited); follow, edit and unfollow checked and idempotent;
 * a leader's market open fanned out to a fixed and a ratio follower, each opened at its own
 * current tick with its evidence; a copy that cannot open recorded with its reason and notified;
 * TP/SL changes, closes and trigger closes mirrored; the queue surviving a restart without a
 * double open; the profit share paid only above the high-water mark (a hand-worked sequence);
 * unfollow with close now; suspension; statistics equal to a recomputation from the positions
 * table. The ledger verifies after every test.
 */
import { describe, expect, it } from 'vitest';
import { normalize, sub, add, traderStats } from '@bourse/shared';
import {
  api,
  balance,
  clock,
  closed,
  consoleCall,
  copiesOf,
  copyTradingSuite,
  follow,
  opened,
  requestId,
  run,
  signIn,
  tick,
  tokens,
  user,
  type User,
} from './support/copy-trading';
import { call, onPostgres } from './helpers';

let leader: User;
let fixed: User;
let ratio: User;
let broke: User;
const LEADER_DEPOSIT = '10000';

const ct = copyTradingSuite({ prefix: 'copy', seed: 'copy-trading', leader: () => leader });

describe(`copy trading on ${onPostgres ? 'PostgreSQL' : 'PGlite'}`, () => {
  it('applies to lead at the identity level and track record, approved and audited', async () => {
    leader = await user(LEADER_DEPOSIT);
    const short = await api('POST', '/lead/apply', leader.token, { requestId: requestId() });
    expect(short.body.msg).toBe('hint_identityRequired');
    await ct.db.query('UPDATE app_user SET auth_level = 1 WHERE id = $1', [leader.userId]);
    const record = await api('POST', '/lead/apply', leader.token, { requestId: requestId() });
    expect(record.body.msg).toBe('hint_copyTrackRecordShort');
    // Support may not change settings; finance may.
    const settings = {
      maxProfitShareRate: '0.3',
      minClosedTrades: 1,
      positionDelayMinutes: 0,
    };
    expect((await consoleCall('POST', '/settings/save', tokens.support, settings)).status).toBe(
      403,
    );
    expect((await consoleCall('POST', '/settings/save', tokens.finance, settings)).status).toBe(
      200,
    );
    // One closed trade before applying: it enters the statistics at approval.
    const first = await opened(leader.token);
    await tick('100500.00');
    await closed(leader.token, first.id);
    const apply = requestId();
    const applied = await api('POST', '/lead/apply', leader.token, { requestId: apply });
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    expect(applied.body.data.application).toMatchObject({ status: 0, closedTrades: 1 });
    const again = await api('POST', '/lead/apply', leader.token, { requestId: apply });
    expect(again.body.data.application.id).toBe(applied.body.data.application.id);
    const pending = await api('POST', '/lead/apply', leader.token, { requestId: requestId() });
    expect(pending.body.msg).toBe('hint_copyApplicationPending');

    const list = await consoleCall('GET', '/applications', tokens.finance, {
      pageNum: '1',
      pageSize: '10',
      status: '0',
    });
    expect(list.body.rows).toHaveLength(1);
    const id = list.body.rows![0].id;
    expect(
      (await consoleCall('POST', '/applications/approve', tokens.support, { id })).status,
    ).toBe(403);
    const approved = await consoleCall('POST', '/applications/approve', tokens.finance, { id });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body.data).toMatchObject({ status: 1, reviewedBy: 'copy-finance' });
    const twice = await consoleCall('POST', '/applications/approve', tokens.finance, { id });
    expect(twice.body.msg).toBe('hint_copyApplicationReviewed');
    const { rows: audit } = await ct.db.query<{ action: string; operator_name: string }>(
      `SELECT action, operator_name FROM audit_log WHERE target_type = 'copy_trader_application'`,
    );
    expect(audit).toEqual([{ action: 'copyTrade.approve', operator_name: 'copy-finance' }]);
    const profile = await call(ct.app, 'POST', '/api/copyTrade/lead/profile', {
      token: leader.token,
      json: {
        title: { en: 'Trend rider', fr: 'Suiveur de tendance' },
        description: { en: 'Longs on strength.' },
        profitShareRate: '0.1',
        minCopyAmount: '10',
        maxCopyAmount: '500',
        maxFollowers: 10,
      },
    });
    expect(profile.status, JSON.stringify(profile.body)).toBe(200);
    const tooHigh = await call(ct.app, 'POST', '/api/copyTrade/lead/profile', {
      token: leader.token,
      json: {
        title: { en: 'Trend rider' },
        description: { en: 'Longs.' },
        profitShareRate: '0.5',
        minCopyAmount: '10',
        maxFollowers: 10,
      },
    });
    expect(tooHigh.body.msg).toBe('hint_copyRateAbove');
  });

  it('checks follows, answers a repeated request once, and edits', async () => {
    fixed = await user('5000');
    ratio = await user('5000');
    broke = await user();
    expect((await follow(leader.token, { mode: 1, amount: '50' })).body.msg).toBe('hint_copySelf');
    const unknown = await follow(fixed.token, {
      traderId: fixed.userId + 1000,
      mode: 1,
      amount: '50',
    });
    expect(unknown.body.msg).toBe('hint_copyTraderNotFound');
    expect((await follow(fixed.token, { mode: 1, amount: '5' })).body.msg).toBe(
      'hint_copyAmountRange',
    );
    const id = requestId();
    const first = await follow(fixed.token, { mode: 1, amount: '50' }, id);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.data).toMatchObject({
      traderId: leader.userId,
      mode: 1,
      amount: '50.0000',
      profitShareRate: '0.1',
      status: 1,
      cumPnl: '0.0000',
      hwm: '0.0000',
    });
    const repeat = await follow(fixed.token, { mode: 1, amount: '50' }, id);
    expect(repeat.body.data.id).toBe(first.body.data.id);
    expect((await follow(fixed.token, { mode: 1, amount: '60' }, id)).body.msg).toBe(
      'hint_requestIdReused',
    );
    expect((await follow(fixed.token, { mode: 1, amount: '50' })).body.msg).toBe(
      'hint_copyAlreadyFollowing',
    );
    const edited = await api('POST', '/relation/edit', fixed.token, {
      relationId: first.body.data.id,
      mode: 1,
      amount: '40',
      maxOpen: 5,
      budget: '1000',
    });
    expect(edited.body.data.amount).toBe('40.0000');
    const other = await api('POST', '/relation/edit', ratio.token, {
      relationId: first.body.data.id,
      mode: 1,
      amount: '40',
      maxOpen: 5,
      budget: '1000',
    });
    expect(other.body.msg).toBe('hint_copyRelationNotFound');
    expect((await follow(ratio.token, { mode: 2, ratio: '0.5' })).status).toBe(200);
    expect((await follow(broke.token, { mode: 1, amount: '50' })).status).toBe(200);
    const list = await api('GET', '/relation/followedList', fixed.token, {
      pageNum: '1',
      pageSize: '10',
    });
    expect(list.body.rows).toHaveLength(1);
  });

  it("opens each follower's copy at the follower's own tick, and records one that cannot open", async () => {
    await tick('100000.00');
    const lead = await opened(leader.token);
    // The copies open at the tick current when the worker runs, not at the leader's.
    const own = await tick('100100.00');
    const done = await run();
    expect(done.tasks).toBe(3);
    const [fixedCopy] = await copiesOf(fixed.token);
    expect(fixedCopy).toMatchObject({
      status: 1,
      reason: null,
      leader: { id: lead.id, entryPrice: '100000.00', margin: '100.0000' },
      position: {
        status: 1,
        entryPrice: '100100.00',
        leverage: 10,
        orderDirection: 1,
        entry: { price: '100100.00', sequence: own.sequence, time: own.time, source: 'scripted' },
      },
    });
    expect(Number(fixedCopy!.position.margin)).toBeLessThanOrEqual(40);
    expect(Number(fixedCopy!.position.margin)).toBeGreaterThan(39);
    const [ratioCopy] = await copiesOf(ratio.token);
    expect(ratioCopy!.position.entry.sequence).toBe(own.sequence);
    expect(Number(ratioCopy!.position.margin)).toBeLessThanOrEqual(50);
    expect(Number(ratioCopy!.position.margin)).toBeGreaterThan(49);
    const [failed] = await copiesOf(broke.token);
    expect(failed).toMatchObject({ status: 2, reason: 'hint_copyBalanceShort', position: null });
    const { rows: told } = await ct.db.query<{ type: string }>(
      `SELECT type FROM user_notification WHERE user_id = $1`,
      [broke.userId],
    );
    expect(told.map((row) => row.type)).toContain('copyFailed');
    // Run again: nothing is opened twice.
    expect((await run()).tasks).toBe(0);
  });

  it("mirrors the leader's TP/SL change and close onto the copies", async () => {
    const { leader: lead, position } = (await copiesOf(fixed.token))[0]!;
    const changed = await call(ct.app, 'POST', '/api/contractPosition/updateTpSl', {
      token: leader.token,
      json: { id: lead.id, takeProfit: '120000', stopLoss: '95000' },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    await run();
    const copy = await call(ct.app, 'GET', '/api/contractPosition/detail', {
      token: fixed.token,
      query: { id: String(position.id) },
    });
    expect(copy.body.data).toMatchObject({ takeProfit: '120000.00', stopLoss: '95000.00' });

    const exit = await tick('101000.00');
    await closed(leader.token, lead.id);
    await tick('101200.00');
    await run();
    for (const follower of [fixed, ratio]) {
      const [row] = await copiesOf(follower.token);
      expect(row!.leader.status).toBe(2);
      expect(row!.position).toMatchObject({ status: 2, closeReason: 1, exitPrice: '101200.00' });
      expect(row!.position.exit.sequence).toBe(exit.sequence + 1);
    }
  });

  it("mirrors a close by the leader's take-profit", async () => {
    await tick('100000.00');
    const lead = await opened(leader.token, { takeProfit: '101000' });
    await tick('100050.00');
    await run();
    const [copy] = await copiesOf(fixed.token);
    expect(copy!.position.status).toBe(1);
    await tick('101000.00');
    await run();
    const [after] = await copiesOf(fixed.token);
    expect(after!.leader).toMatchObject({ id: lead.id, status: 2 });
    expect(after!.position.status).toBe(2);
  });

  it('keeps the queue across a restart and never opens a copy twice', async () => {
    await tick('100000.00');
    const lead = await opened(leader.token);
    const { rows: tasks } = await ct.db.query<{ id: number; relation_id: number }>(
      `SELECT id, relation_id FROM copy_task WHERE leader_position_id = $1 AND status = 0`,
      [lead.id],
    );
    expect(tasks).toHaveLength(3);
    // A crash after one copy was placed but before its task was marked: the position exists
    // under the task's request id.
    const { rows: fixedRelation } = await ct.db.query<{ id: number }>(
      'SELECT id FROM copy_relation WHERE follower_id = $1',
      [fixed.userId],
    );
    const made = await opened(fixed.token, {
      quantity: undefined,
      margin: '40',
      requestId: `copy_${fixedRelation[0]!.id}_${lead.id}_open`,
    });
    await ct.restart();
    await tick('100010.00');
    await run();
    const { rows } = await ct.db.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM contract_position WHERE user_id = $1
         AND request_id = $2`,
      [fixed.userId, `copy_${fixedRelation[0]!.id}_${lead.id}_open`],
    );
    expect(rows[0]!.count).toBe(1);
    const [copy] = await copiesOf(fixed.token);
    expect(copy).toMatchObject({ status: 1, position: { id: made.id } });
    const [ratioCopy] = await copiesOf(ratio.token);
    expect(ratioCopy!.position.status).toBe(1);
    await tick('100020.00');
    await closed(leader.token, lead.id);
    await run();
    expect((await copiesOf(fixed.token))[0]!.position.status).toBe(2);
  });

  it('computes the statistics from the positions table', async () => {
    await run();
    const detail = await api('GET', '/trader/detail', undefined, {
      traderId: String(leader.userId),
    });
    expect(detail.status, JSON.stringify(detail.body)).toBe(200);
    const { rows } = await ct.db.query<{
      id: number;
      opened_at: Date;
      closed_at: Date;
      realized_pnl: string;
      close_fee: string;
      open_fee: string;
      margin: string;
    }>(
      `SELECT id, opened_at, closed_at, realized_pnl::text, close_fee::text, open_fee::text, margin::text
       FROM contract_position WHERE user_id = $1 AND book = 'live' AND status = 2 ORDER BY closed_at, id`,
      [leader.userId],
    );
    // The leader only trades one position at a time: the equity before a close is the deposit,
    // the net results of the closes before it, less the open fee of the position closing.
    let equity = LEADER_DEPOSIT;
    const trades = rows.map((row) => {
      const pnl = sub(sub(row.realized_pnl, row.close_fee), row.open_fee);
      const trade = {
        id: row.id,
        openedAt: row.opened_at,
        closedAt: row.closed_at,
        pnl,
        margin: row.margin,
        equityBefore: sub(equity, row.open_fee),
      };
      equity = add(equity, pnl);
      return trade;
    });
    const expected = traderStats(trades, new Date(detail.body.data.statsAt));
    expect(detail.body.data.windows.map((w: any) => ({ ...w, pnl: normalize(w.pnl) }))).toEqual(
      (['7', '30', '90', 'all'] as const).map((period) => ({
        ...expected.windows[period],
        pnl: normalize(expected.windows[period].pnl),
      })),
    );
    expect(detail.body.data.curve).toEqual(expected.curve);
    expect(detail.body.data.windows[3].trades).toBe(rows.length);
  });

  it('suspends a trader: no new copies, follows refused, followers told; resumes', async () => {
    const suspended = await consoleCall('POST', '/traders/suspend', tokens.finance, {
      traderId: leader.userId,
      reason: 'Under review',
    });
    expect(suspended.status, JSON.stringify(suspended.body)).toBe(200);
    expect(suspended.body.data.status).toBe(2);
    const before = (await copiesOf(fixed.token)).length;
    await tick('100000.00');
    const lead = await opened(leader.token);
    await run();
    expect((await copiesOf(fixed.token)).length).toBe(before);
    const newcomer = await user('100');
    expect((await follow(newcomer.token, { mode: 1, amount: '50' })).body.msg).toBe(
      'hint_copyTraderSuspended',
    );
    const { rows: told } = await ct.db.query<{ user_id: number }>(
      `SELECT user_id FROM user_notification WHERE type = 'copyTraderSuspended'`,
    );
    expect(told.map((row) => row.user_id).sort()).toEqual(
      [leader.userId, fixed.userId, ratio.userId, broke.userId].sort(),
    );
    await tick('100000.00');
    await closed(leader.token, lead.id);
    const resumed = await consoleCall('POST', '/traders/resume', tokens.finance, {
      traderId: leader.userId,
      reason: 'Cleared',
    });
    expect(resumed.body.data.status).toBe(1);
  });

  it('unfollows with close now: the copies close at their own ticks, then it settles', async () => {
    await tick('100000.00');
    const lead = await opened(leader.token);
    await tick('100000.00');
    await run();
    const [copy] = await copiesOf(ratio.token);
    expect(copy!.position.status).toBe(1);
    const relationId = copy!.relationId;
    await tick('100300.00');
    const ended = await api('POST', '/relation/unfollow', ratio.token, {
      relationId,
      closeMode: 1,
      requestId: requestId(),
    });
    expect(ended.status, JSON.stringify(ended.body)).toBe(200);
    expect(ended.body.data).toMatchObject({ status: 2, endMode: 1, openCopies: 0 });
    const [closedCopy] = await copiesOf(ratio.token);
    expect(closedCopy!.position).toMatchObject({ status: 2, exitPrice: '100300.00' });
    const settlements = await api('GET', '/relation/settlements', ratio.token, {
      pageNum: '1',
      pageSize: '10',
    });
    expect(settlements.body.rows![0]).toMatchObject({ relationId, reason: 2 });
    expect(settlements.body.rows![0].cumPnl).toBe(ended.body.data.cumPnl);
    await tick('100300.00');
    await closed(leader.token, lead.id);
    await run();
  });
});

describe('the profit share above the high-water mark', () => {
  it('pays on +100, nothing on −50 and +30, and on 20 after +40 (rate 0.1)', async () => {
    // Without fees, so each copy's result is exactly its price move.
    await ct.db.query('UPDATE order_fee_setting SET fee_rate = 0');
    ct.app.services.settings.invalidate();
    const follower = await user('10000');
    const followed = await follow(follower.token, { mode: 1, amount: '100' });
    expect(followed.status).toBe(200);
    const relationId = followed.body.data.id as number;
    const { rows: leaderPositions } = await ct.db.query<{ id: number }>(
      `SELECT id FROM contract_position WHERE user_id = $1 AND status = 2 ORDER BY id LIMIT 1`,
      [leader.userId],
    );
    const scheduler = ct.app.services.scheduler;
    await scheduler.runDue();
    let seq = 0;
    /** A copy of 0.01 BTC that gains or loses `pnl` (100 per 10,000 of price move). */
    async function copyWith(pnl: string) {
      await tick('100000.00');
      const position = await opened(follower.token);
      await ct.db.query(
        `INSERT INTO copy_task (relation_id, leader_position_id, kind, seq, status, next_at,
           follower_position_id, created_at, done_at) VALUES ($1, $2, 'open', $3, 1, $4, $5, $4, $4)`,
        [relationId, leaderPositions[0]!.id, ++seq, clock.now(), position.id],
      );
      await tick(normalize(add('100000', String(Number(pnl) * 100))));
      await closed(follower.token, position.id);
    }
    const traderBefore = await balance(leader.userId);
    const day = async () => {
      clock.advance(86_400_000);
      await scheduler.runDue();
      // Sessions end after a day without calls.
      await signIn(follower);
      const page = await api('GET', '/relation/settlements', follower.token, {
        pageNum: '1',
        pageSize: '1',
      });
      return page.body.rows![0] as Record<string, string>;
    };
    await copyWith('100');
    expect(await day()).toMatchObject({
      cumPnl: '100.0000',
      hwmBefore: '0.0000',
      hwmAfter: '100.0000',
      share: '10.0000',
      paid: '10.0000',
      reason: 1 as never,
    });
    await copyWith('-50');
    expect(await day()).toMatchObject({ cumPnl: '50.0000', hwmAfter: '100.0000', share: '0.0000' });
    await copyWith('30');
    expect(await day()).toMatchObject({ cumPnl: '80.0000', hwmAfter: '100.0000', share: '0.0000' });
    await copyWith('40');
    expect(await day()).toMatchObject({
      cumPnl: '120.0000',
      hwmBefore: '100.0000',
      hwmAfter: '120.0000',
      share: '2.0000',
      paid: '2.0000',
    });
    expect(await balance(leader.userId)).toBe(normalize(add(traderBefore, '12')));
    const { rows: entries } = await ct.db.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM ledger_entry WHERE entry_type = 'copy_profit_share'
         AND ref_id = $1`,
      [String(relationId)],
    );
    expect(entries[0]!.count).toBe(2);
    // The same day again pays nobody twice.
    await scheduler.runDue();
    expect(await balance(leader.userId)).toBe(normalize(add(traderBefore, '12')));
  });
});
