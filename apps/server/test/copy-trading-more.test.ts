/**
 * Copy trading, the paths copy-trading.test.ts leaves out, with a scripted feed: a leader's
 * partial closes mirrored as the same fraction of each copy (rounded down to the lot); unfollow
 * keeping the copies (their closes no longer mirrored); an edit changing the next copy; a demo
 * follower copying a live leader into its demo book and settling there; a share the follower's
 * balance could not pay kept owed and paid first the next day; the profit shares in the balance
 * records under copyTrade; and the console's relations, report and follower cap (roles, audit).
 * The ledger verifies after every test.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { add, div, isPositive, lt, normalize, sub, toScale } from '@bourse/shared';
import { operatorReady } from './support/admin-api';
import {
  api,
  balance,
  clock,
  closed,
  consoleCall,
  copiesOf,
  copyTradingSuite,
  follow,
  followed,
  opened,
  OPERATOR_PASSWORD,
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

const ct = copyTradingSuite({ prefix: 'more', seed: 'copy-trading-more', leader: () => leader });

beforeAll(async () => {
  leader = await lead();
});

async function relationOf(token: string, id: number) {
  const result = await api('GET', '/relation/followedList', token, {
    pageNum: '1',
    pageSize: '50',
  });
  expect(result.status, JSON.stringify(result.body)).toBe(200);
  return (result.body.rows as Record<string, any>[]).find((row) => row.id === id)!;
}

type Settlement = Record<'share' | 'paid' | 'owedBefore' | 'owedAfter', string> & {
  reason: number;
};

/** A lead trader: identity level 1, one closed trade, approved, sharing 10 % of profits. */
async function lead(): Promise<User> {
  const settings = { maxProfitShareRate: '0.3', minClosedTrades: 1, positionDelayMinutes: 0 };
  expect((await consoleCall('POST', '/settings/save', tokens.finance, settings)).status).toBe(200);
  const trader = await user('20000');
  await ct.db.query('UPDATE app_user SET auth_level = 1 WHERE id = $1', [trader.userId]);
  const first = await opened(trader.token);
  await tick('100000.00');
  await closed(trader.token, first.id);
  expect((await api('POST', '/lead/apply', trader.token, { requestId: requestId() })).status).toBe(
    200,
  );
  const list = await consoleCall('GET', '/applications', tokens.finance, {
    pageNum: '1',
    pageSize: '10',
    status: '0',
  });
  const approved = await consoleCall('POST', '/applications/approve', tokens.finance, {
    id: list.body.rows![0].id,
  });
  expect(approved.status, JSON.stringify(approved.body)).toBe(200);
  const profile = await call(ct.app, 'POST', '/api/copyTrade/lead/profile', {
    token: trader.token,
    json: {
      title: { en: 'Steady' },
      description: { en: 'Longs.' },
      profitShareRate: '0.1',
      minCopyAmount: '10',
      maxCopyAmount: '500',
      maxFollowers: 20,
    },
  });
  expect(profile.status, JSON.stringify(profile.body)).toBe(200);
  return trader;
}

describe(`copy trading, more paths, on ${onPostgres ? 'PostgreSQL' : 'PGlite'}`, () => {
  it("mirrors the leader's partial closes as the same fraction of each copy", async () => {
    const follower = await user('2000');
    const relation = await followed(follower.token, { mode: 1, amount: '90' });
    await tick('100000.00');
    const position = await opened(leader.token, { quantity: '0.03' });
    await tick('100000.00');
    await run();
    const [copy] = await copiesOf(follower.token);
    // 90 of margin at 100,000 ×10: 0.009.
    expect(copy!.position).toMatchObject({ status: 1, quantity: '0.009', margin: '90.0000' });
    const copyId = copy!.position.id as number;

    // A third of the leader's position: a third of the copy.
    await tick('101000.00');
    const part = await closed(leader.token, position.id, '0.01');
    expect(part).toMatchObject({ parentId: position.id, quantity: '0.01', status: 2 });
    const exit = await tick('101100.00');
    await run();
    const { rows: parts } = await ct.db.query<{
      id: number;
      quantity: string;
      exit_sequence: number;
      close_request_id: string;
    }>(
      `SELECT id, quantity::text, exit_sequence, close_request_id FROM contract_position
       WHERE parent_id = $1 ORDER BY id`,
      [copyId],
    );
    expect(parts).toHaveLength(1);
    expect(normalize(parts[0]!.quantity)).toBe('0.003');
    // At the follower's own tick, under a request id of its own.
    expect(parts[0]!.exit_sequence).toBe(exit.sequence);
    expect(parts[0]!.close_request_id).toBe(`copy_${relation.id}_${position.id}_close_${part.id}`);
    const [after] = await copiesOf(follower.token);
    expect(after!.position).toMatchObject({ status: 1, quantity: '0.006', margin: '60.0000' });

    // Three quarters of what is left (0.015 of 0.02): 0.0045 of 0.006.
    await closed(leader.token, position.id, '0.015');
    await tick('101100.00');
    await run();
    const [third] = await copiesOf(follower.token);
    expect(third!.position).toMatchObject({ status: 1, quantity: '0.0015' });
    // Run again: nothing is closed twice.
    expect((await run()).tasks).toBe(0);
    expect((await copiesOf(follower.token))[0]!.position.quantity).toBe('0.0015');

    // The rest of the leader's position: the rest of the copy.
    await closed(leader.token, position.id);
    await tick('101100.00');
    await run();
    const [last] = await copiesOf(follower.token);
    expect(last!.position).toMatchObject({ status: 2, quantity: '0.0015' });
    // The relation's P&L counts the copy and both parts, each after its fees.
    const { rows: sums } = await ct.db.query<{ net: string }>(
      `SELECT sum(realized_pnl - close_fee - open_fee)::text AS net FROM contract_position
       WHERE id = $1 OR parent_id = $1`,
      [copyId],
    );
    const shown = await relationOf(follower.token, relation.id);
    expect(normalize(shown.cumPnl)).toBe(normalize(toScale(sums[0]!.net, 4)));
    expect(isPositive(shown.cumPnl)).toBe(true);
    // The leader's parts are trades of the statistics, each with its own result.
    const { rows: trades } = await ct.db.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM copy_trader_trade tt JOIN contract_position p
         ON p.id = tt.position_id WHERE p.id = $1 OR p.parent_id = $1`,
      [position.id],
    );
    expect(trades[0]!.count).toBe(3);
  });

  it('keeps the copies on unfollow with keep: their closes are no longer mirrored', async () => {
    const follower = await user('2000');
    const relation = await followed(follower.token, { mode: 1, amount: '50' });
    await tick('100000.00');
    const position = await opened(leader.token);
    await tick('100000.00');
    await run();
    const [copy] = await copiesOf(follower.token);
    expect(copy!.position.status).toBe(1);
    const ended = await api('POST', '/relation/unfollow', follower.token, {
      relationId: relation.id,
      closeMode: 2,
      requestId: requestId(),
    });
    expect(ended.status, JSON.stringify(ended.body)).toBe(200);
    expect(ended.body.data).toMatchObject({ status: 2, endMode: 2, openCopies: 1 });
    // Settled at unfollow: nothing realized yet, nothing due.
    const settlements = await api('GET', '/relation/settlements', follower.token, {
      relationId: String(relation.id),
      pageNum: '1',
      pageSize: '10',
    });
    expect(settlements.body.rows).toEqual([
      expect.objectContaining({ relationId: relation.id, reason: 2, share: '0.0000' }),
    ]);
    await tick('100500.00');
    await closed(leader.token, position.id);
    await run();
    const { rows: tasks } = await ct.db.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM copy_task WHERE relation_id = $1 AND kind = 'close'`,
      [relation.id],
    );
    expect(tasks[0]!.count).toBe(0);
    const kept = await call(ct.app, 'GET', '/api/contractPosition/detail', {
      token: follower.token,
      query: { id: String(copy!.position.id) },
    });
    expect(kept.body.data.status).toBe(1);
    // An ordinary position of the follower's now: closed by its owner.
    await tick('100500.00');
    expect(await closed(follower.token, copy!.position.id)).toMatchObject({ status: 2 });
  });

  it('sizes the next copy by the settings as edited', async () => {
    const follower = await user('2000');
    const relation = await followed(follower.token, { mode: 1, amount: '50' });
    await tick('100000.00');
    const first = await opened(leader.token);
    await tick('100000.00');
    await run();
    const edited = await api('POST', '/relation/edit', follower.token, {
      relationId: relation.id,
      mode: 2,
      ratio: '0.2',
      maxOpen: 5,
      budget: '1000',
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body.data).toMatchObject({ mode: 2, ratio: '0.2', amount: null });
    // The leader's next position is 0.02 ×10 (margin 200): a fifth is 40.
    const second = await opened(leader.token, { quantity: '0.02' });
    await tick('100000.00');
    await run();
    const copies = await copiesOf(follower.token);
    const byLeader = new Map(copies.map((row) => [row.leader.id as number, row.position]));
    expect(byLeader.get(first.id)).toMatchObject({ margin: '50.0000', quantity: '0.005' });
    expect(byLeader.get(second.id)).toMatchObject({ margin: '40.0000', quantity: '0.004' });
    await tick('100000.00');
    await closed(leader.token, first.id);
    await closed(leader.token, second.id);
    await run();
    expect((await copiesOf(follower.token)).every((row) => row.position.status === 2)).toBe(true);
  });

  it("copies a live leader into a demo follower's demo book and settles there", async () => {
    const follower = await user('1000');
    const liveBefore = await balance(follower.userId);
    const demo = await call(ct.app, 'GET', '/api/userInfo/changeLoginModel', {
      token: follower.token,
      query: { accountType: '2' },
    });
    expect(demo.body.data.accountType).toBe(2);
    const relation = await followed(follower.token, { mode: 1, amount: '100' });
    expect(relation.book).toBe('demo');
    await tick('100000.00');
    const position = await opened(leader.token);
    await tick('100000.00');
    await run();
    const [copy] = await copiesOf(follower.token);
    expect(copy!.position.status).toBe(1);
    const { rows: books } = await ct.db.query<{ book: string }>(
      'SELECT book FROM contract_position WHERE id = $1',
      [copy!.position.id],
    );
    expect(books[0]!.book).toBe('demo');
    expect(await balance(follower.userId)).toBe(liveBefore);
    // The demo copy is no trade of the follower's live book.
    await call(ct.app, 'GET', '/api/userInfo/changeLoginModel', {
      token: follower.token,
      query: { accountType: '0' },
    });
    expect((await copiesOf(follower.token)).length).toBe(0);
    await call(ct.app, 'GET', '/api/userInfo/changeLoginModel', {
      token: follower.token,
      query: { accountType: '2' },
    });

    await tick('105000.00');
    await closed(leader.token, position.id);
    await tick('105000.00');
    await run();
    const leaderDemo = await balance(leader.userId, 'available', 'demo');
    const leaderLive = await balance(leader.userId);
    const ended = await api('POST', '/relation/unfollow', follower.token, {
      relationId: relation.id,
      closeMode: 1,
      requestId: requestId(),
    });
    expect(ended.status, JSON.stringify(ended.body)).toBe(200);
    const settlement = (
      await api('GET', '/relation/settlements', follower.token, { pageNum: '1', pageSize: '1' })
    ).body.rows![0];
    expect(settlement).toMatchObject({ relationId: relation.id, book: 'demo', reason: 2 });
    expect(isPositive(settlement.paid)).toBe(true);
    // Paid from the follower's demo balance to the leader's demo balance; live untouched.
    expect(await balance(leader.userId, 'available', 'demo')).toBe(
      normalize(add(leaderDemo, settlement.paid)),
    );
    expect(await balance(leader.userId)).toBe(leaderLive);
    expect(await balance(follower.userId)).toBe(liveBefore);
    const { rows: entries } = await ct.db.query<{ book: string }>(
      `SELECT book FROM ledger_entry WHERE entry_type = 'copy_profit_share' AND ref_id = $1`,
      [String(relation.id)],
    );
    expect(entries).toEqual([{ book: 'demo' }]);
    // Demo copies never make the leader's statistics or the live report.
    const report = await consoleCall('GET', '/report', tokens.finance, {
      pageNum: '1',
      pageSize: '10',
      book: 'demo',
    });
    expect(report.status, JSON.stringify(report.body)).toBe(200);
    expect(report.body.rows![0]).toMatchObject({ book: 'demo', settlements: 1 });
    expect(normalize(report.body.rows![0].paid)).toBe(normalize(settlement.paid));
  });

  it("shows the console the relations and caps a trader's followers, audited", async () => {
    const list = async (token: string, query: Record<string, string>) =>
      consoleCall('GET', '/relations', token, { pageNum: '1', pageSize: '50', ...query });
    expect((await list(tokens.support, {})).status).toBe(403);
    const all = await list(tokens.finance, { traderId: String(leader.userId) });
    expect(all.status, JSON.stringify(all.body)).toBe(200);
    expect(all.body.total).toBeGreaterThanOrEqual(4);
    const active = await list(tokens.finance, { traderId: String(leader.userId), status: '1' });
    const ended = await list(tokens.finance, { traderId: String(leader.userId), status: '2' });
    expect(active.body.total! + ended.body.total!).toBe(all.body.total);
    expect(ended.body.rows!.every((row: any) => row.status === 2 && row.endTime)).toBe(true);
    const one = all.body.rows![0];
    const byFollower = await list(tokens.finance, { userAccount: one.followerAccount });
    expect(byFollower.body.rows!.map((row: any) => row.followerId)).toEqual([one.followerId]);

    // A cap at the followers it has: the next follow is refused; the present ones stay.
    const followers = active.body.total as number;
    const cap = { traderId: leader.userId, maxFollowersCap: followers };
    expect((await consoleCall('POST', '/traders/cap', tokens.support, cap)).status).toBe(403);
    const capped = await consoleCall('POST', '/traders/cap', tokens.finance, cap);
    expect(capped.status, JSON.stringify(capped.body)).toBe(200);
    expect(capped.body.data).toMatchObject({ maxFollowersCap: followers });
    const newcomer = await user('500');
    const refused = await follow(newcomer.token, { mode: 1, amount: '50' });
    expect(refused.body.msg).toBe('hint_copyFollowersFull');
    const lifted = await consoleCall('POST', '/traders/cap', tokens.finance, {
      traderId: leader.userId,
    });
    expect(lifted.body.data.maxFollowersCap).toBeNull();
    await followed(newcomer.token, { mode: 1, amount: '50' });
    const { rows: audit } = await ct.db.query<{ operator_name: string; before: any; after: any }>(
      `SELECT operator_name, before, after FROM audit_log WHERE action = 'copyTrade.cap' ORDER BY id`,
    );
    expect(audit).toEqual([
      {
        operator_name: 'more-finance',
        before: { maxFollowersCap: null },
        after: { maxFollowersCap: followers },
      },
      {
        operator_name: 'more-finance',
        before: { maxFollowersCap: followers },
        after: { maxFollowersCap: null },
      },
    ]);
  });

  it('keeps a share the balance cannot pay owed and pays it first the next day', async () => {
    const follower = await user('200');
    const relation = await followed(follower.token, { mode: 1, amount: '100' });
    const scheduler = ct.app.services.scheduler;
    await scheduler.runDue();
    await tick('100000.00');
    const position = await opened(leader.token);
    await tick('100000.00');
    await run();
    await tick('110000.00');
    await closed(leader.token, position.id);
    await tick('110000.00');
    await run();
    const gained = await relationOf(follower.token, relation.id);
    expect(gained.openCopies).toBe(0);
    const share = toScale(normalize(String(gained.cumPnl)), 4);
    const due = normalize(toScale(div(share, '10', 18), 4, 'down'));
    // The follower's own position at 100× takes all but about 3 of the balance (fee 5 % of
    // the margin).
    const before = await balance(follower.userId);
    const margin = toScale(div(sub(before, '3'), '1.05', 18), 4, 'down');
    const own = await opened(follower.token, { leverage: 100, quantity: undefined, margin });
    const left = await balance(follower.userId);
    expect(lt(left, due)).toBe(true);

    clock.advance(86_400_000);
    await scheduler.runDue();
    await signIn(follower);
    const pages = async () =>
      (
        await api('GET', '/relation/settlements', follower.token, {
          relationId: String(relation.id),
          pageNum: '1',
          pageSize: '10',
        })
      ).body.rows as Settlement[];
    const first = (await pages())[0]!;
    expect(first).toMatchObject({ reason: 1, share: toScale(due, 4), owedBefore: '0.0000' });
    expect(normalize(first.paid)).toBe(normalize(toScale(left, 4, 'down')));
    expect(normalize(first.owedAfter)).toBe(normalize(sub(due, first.paid)));
    expect(await balance(follower.userId)).toBe(normalize(sub(left, first.paid)));
    expect(normalize((await relationOf(follower.token, relation.id)).owed)).toBe(
      normalize(first.owedAfter),
    );

    // Funds back; the next day pays what is owed first (no new share).
    await tick('110000.00');
    await closed(follower.token, own.id);
    clock.advance(86_400_000);
    await scheduler.runDue();
    await signIn(follower);
    const second = (await pages())[0]!;
    expect(second).toMatchObject({
      reason: 1,
      share: '0.0000',
      owedBefore: first.owedAfter,
      paid: first.owedAfter,
      owedAfter: '0.0000',
    });
    const shown = await relationOf(follower.token, relation.id);
    expect(normalize(shown.owed)).toBe('0');
    expect(normalize(shown.sharePaid)).toBe(due);

    // In the balance records under copyTrade (and no longer under other), both sides.
    const records = async (who: User, type: string) =>
      (
        await call(ct.app, 'GET', '/api/balanceRecord/list', {
          token: who.token,
          query: { type, pageNum: '1', pageSize: '50' },
        })
      ).body.rows as { type: string; entryType: string; amount: string }[];
    const paidOut = await records(follower, 'copyTrade');
    expect(paidOut.map((row) => [row.type, row.entryType])).toEqual([
      ['copyTrade', 'copy_profit_share'],
      ['copyTrade', 'copy_profit_share'],
    ]);
    expect(normalize(paidOut.reduce((sum, row) => add(sum, row.amount), '0'))).toBe(
      normalize(`-${due}`),
    );
    expect(
      (await records(follower, 'other')).filter((row) => row.entryType === 'copy_profit_share'),
    ).toEqual([]);
    await signIn(leader);
    const received = await records(leader, 'copyTrade');
    expect(received.length).toBeGreaterThanOrEqual(2);
    expect(received.every((row) => row.entryType === 'copy_profit_share')).toBe(true);
  });

  it('reports the settlements per day to the console (live book), not to support', async () => {
    tokens.finance = await operatorReady(ct.app, 'more-finance', OPERATOR_PASSWORD);
    tokens.support = await operatorReady(ct.app, 'more-support', OPERATOR_PASSWORD);
    const query = { pageNum: '1', pageSize: '10' };
    expect((await consoleCall('GET', '/report', tokens.support, query)).status).toBe(403);
    const report = await consoleCall('GET', '/report', tokens.finance, query);
    expect(report.status, JSON.stringify(report.body)).toBe(200);
    const { rows } = await ct.db.query<{ day: string; settlements: number; paid: string }>(
      `SELECT to_char(day, 'YYYY-MM-DD') AS day, count(*)::int AS settlements, sum(paid)::text AS paid
       FROM copy_settlement WHERE book = 'live' GROUP BY day ORDER BY day DESC`,
    );
    expect(
      report.body.rows!.map((row: any) => ({
        day: row.day,
        settlements: row.settlements,
        paid: normalize(row.paid),
      })),
    ).toEqual(rows.map((row) => ({ ...row, paid: normalize(row.paid) })));
    expect(report.body.rows!.every((row: any) => row.book === 'live')).toBe(true);
  });
});
