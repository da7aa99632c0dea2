/**
 * Copy trading (issue 25), its "Done when" end to end, against a server of this file's own: the
 * real server with a test clock (`CLOCK_OFFSET_FILE`, moved by writing the file, never by
 * sleeping), the scheduler checking every 500 ms and the copy worker every 200 ms.
 *
 * The operator lets a trader with one closed trade apply at any identity level, shows current
 * positions at once and makes contracts free of fees (so the sign of a round trip's result is the
 * market's alone). A funded user applies on the lead screen, is approved and sets a profit share of
 * 10 %. Follower A follows in the app with a fixed margin, follower B with a ratio of the leader's
 * margin (the follow screen: the preview `copyMargin` sizes, the confirm sheet).
 *
 * The leader opens a BTC contract: each follower's copy opens at the follower's own tick, with its
 * own evidence (entry price = its tick's price, a tick sequence and time at or after the leader's),
 * sized from its own margin (A: the fixed amount, B: the leader's margin × the ratio) at its own
 * price — shown on the copies screen beside the leader's entry with its entry tick. The leader
 * closes and both copies close at their own exit ticks.
 *
 * The daily settlement: the simulated feed's price is random and nobody steers it, so the leader
 * trades for the result each step needs: it opens a long and a short at once (a hedge: one side
 * gains whichever way the price goes) and closes the side whose copy of follower A shows a result
 * of the sign wanted (bounded loops, clear failures). A's cumulative net P&L goes above 0; the
 * clock moves past 00:05 UTC of the next day and the scheduler's settlement pays exactly
 * rate × (cumulative − mark), the mark rises to the cumulative, and the balances of A, B and the
 * leader move by exactly what each settlement paid (open copies move no balance). Then a loss
 * takes A's cumulative below the mark: the next day pays nothing and the mark stays. Then above
 * the mark again: the next day pays only on the part above it. The settlements screen shows each
 * with its inputs, the leader's dashboard the income.
 *
 * Last, follower B unfollows in the app with "close now" while copies are open: they close at once
 * (the leader's positions stay open) and a settlement with reason unfollow is written; the
 * leader's next position is copied to A only. Screenshots at 390x844 (en).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  SETTLEMENT_REASON,
  add,
  cmp,
  contractPreview,
  copyMargin,
  formatAmount,
  gt,
  isPositive,
  lt,
  mul,
  normalize,
  scaleOf,
  settleProfitShare,
  sub,
  sum,
  toScale,
  type ContractPosition,
  type CopyRelation,
  type CopyRow,
  type CopySettlement,
  type LeadDashboard,
  type TraderPosition,
} from '@bourse/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readyAdmin } from '../../../tools/e2e-admin';
import { startE2eServer, type E2eServer } from '../../../tools/e2e-server';
import {
  apiCall,
  appUrl,
  expectOnScreen,
  operatorPost,
  screenshot,
  useBrowser,
  useOwnServer,
  waitForRoute,
  type RegisteredUser,
} from './browser';
import {
  becomeLeader,
  closeContract,
  copies,
  fundedUser,
  openContract,
  operatorGet,
  textOf,
} from './copy-support';

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;
/** The scheduler's fixed UTC time of day (SCHEDULER_UTC_TIME's default), in minutes. */
const SETTLE_MINUTES = 5;

const PRODUCT = 'BTCUSDT';
const LEVERAGE = 20;
/** The leader's size: about 1,150 USDT of margin at BTC's price. */
const LEADER_QUANTITY = '0.2';
/** The leader's orders: BTC at market, at the leverage and quantity above. */
const LEADER_ORDER = { leverage: LEVERAGE, quantity: LEADER_QUANTITY };
const FIXED_AMOUNT = '1000';
const RATIO = '0.5';
/** Room for four open copies of A: a hedged pair and what is left of the pairs before. */
const BUDGET = '4000';
const RATE = '0.1';
/** How far beyond its target a phase takes A's cumulative (either sign): a share of cents. */
const MOVE = '0.2';
/** A bound on the closes of each phase. */
const MAX_CLOSES = 40;

let server: E2eServer | undefined;
let clockDir = '';
/** The server's clock minus the system's, as last written to the clock file. */
let offsetMs = 0;

function serverNow(): number {
  return Date.now() + offsetMs;
}

/** Moves the server's clock to `time` (forward only), by writing the clock file. */
function moveClockTo(time: number): void {
  offsetMs = Math.max(offsetMs, Math.ceil(time - Date.now()));
  writeFileSync(path.join(clockDir, 'offset'), String(offsetMs));
}

/** The scheduler's next due time after the server's now (plus a margin), and the day it settles. */
function nextSettlement(): { time: number; day: string } {
  const now = serverNow() + 30_000;
  const midnight = Math.floor(now / DAY_MS) * DAY_MS;
  let time = midnight + SETTLE_MINUTES * MINUTE_MS;
  if (time <= now) time += DAY_MS;
  // A minute past the fixed time: the day is due.
  time += MINUTE_MS;
  return { time, day: new Date(time).toISOString().slice(0, 10) };
}

beforeAll(async () => {
  clockDir = mkdtempSync(path.join(os.tmpdir(), 'bourse-e2e-clock-'));
  writeFileSync(path.join(clockDir, 'offset'), '0');
  server = await startE2eServer({
    app: 'web',
    dataDirPrefix: 'bourse-e2e-copy-',
    env: {
      CLOCK_OFFSET_FILE: path.join(clockDir, 'offset'),
      SCHEDULER_CHECK_MS: '500',
      COPY_TRADE_CHECK_MS: '200',
      // Ticks four times a second: a round trip waits for the price to move a step, not a second.
      MARKET_TICK_MS: '250',
      // The clock moves days on: sessions outlive it.
      SESSION_TTL_HOURS: '720',
    },
  });
  useOwnServer({
    baseUrl: server.baseUrl,
    adminToken: await readyAdmin(server.baseUrl, server.firstAdminPassword),
  });
});

afterAll(async () => {
  useOwnServer(undefined);
  await server?.stop();
  if (clockDir) rmSync(clockDir, { recursive: true, force: true });
});

// ------------------------------------------------------------------ steps through the API

/** Polls `read` until `done` holds of its answer; a bound against hanging, not a timing. */
async function until<T>(
  what: string,
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline)
      throw new Error(
        `${what}: not reached within ${timeoutMs} ms; last: ${JSON.stringify(value)}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The available USDT of a user. */
async function usdt(user: RegisteredUser): Promise<string> {
  const answer = await apiCall<{ amount: string }>('GET', '/api/userInfo/userBalance', {
    token: user.token,
    query: { currencyId: '3' },
  });
  expect(answer.code, JSON.stringify(answer)).toBe(200);
  return normalize(answer.data.amount);
}

async function position(user: RegisteredUser, id: number): Promise<ContractPosition> {
  const answer = await apiCall<ContractPosition>('GET', '/api/contractPosition/detail', {
    token: user.token,
    query: { id: String(id) },
  });
  expect(answer.code, JSON.stringify(answer)).toBe(200);
  return answer.data;
}

async function relationOf(user: RegisteredUser): Promise<CopyRelation> {
  const answer = await apiCall('GET', '/api/copyTrade/relation/followedList', {
    token: user.token,
    query: { pageNum: '1', pageSize: '50' },
  });
  expect(answer.code, JSON.stringify(answer)).toBe(200);
  const [relation] = (answer.rows ?? []) as CopyRelation[];
  expect(relation).toBeDefined();
  return relation!;
}

async function settlements(user: RegisteredUser): Promise<CopySettlement[]> {
  const answer = await apiCall('GET', '/api/copyTrade/relation/settlements', {
    token: user.token,
    query: { pageNum: '1', pageSize: '100' },
  });
  expect(answer.code, JSON.stringify(answer)).toBe(200);
  // The wire writes amounts at the currency's scale; compared here as decimals.
  return ((answer.rows ?? []) as CopySettlement[]).map((row) => ({
    ...row,
    cumPnl: normalize(row.cumPnl),
    hwmBefore: normalize(row.hwmBefore),
    hwmAfter: normalize(row.hwmAfter),
    rate: normalize(row.rate),
    share: normalize(row.share),
    owedBefore: normalize(row.owedBefore),
    paid: normalize(row.paid),
    owedAfter: normalize(row.owedAfter),
  }));
}

/** The copy of a leader position once the worker has opened it (a failure fails the test). */
async function openedCopy(user: RegisteredUser, leaderId: number): Promise<CopyRow> {
  const row = await until(
    `the copy of leader position ${leaderId} for user ${user.userInfo.id}`,
    async () => (await copies(user)).find((entry) => entry.leader.id === leaderId),
    (entry) => entry !== undefined && entry.status !== 0,
  );
  expect(row!.reason, JSON.stringify(row)).toBeNull();
  expect(row!.status).toBe(1);
  expect(row!.position?.status).toBe(1);
  return row!;
}

/** The copy once its position is closed. */
function closedCopy(user: RegisteredUser, copyId: number): Promise<CopyRow> {
  return until(
    `copy ${copyId} closed`,
    async () => (await copies(user)).find((entry) => entry.id === copyId)!,
    (entry) => entry.position?.status === 2,
  ) as Promise<CopyRow>;
}

/** An amount as the copy screens show it: at least two decimals, grouped, its currency. */
function shown(value: string, scale: number): string {
  const decimals = Math.min(scale, Math.max(2, scaleOf(normalize(value))));
  return `${formatAmount(value, { decimals, thousands: true })} USDT`;
}

function signedShown(value: string, scale: number): string {
  const text = shown(value, scale);
  return isPositive(value) ? `+${text}` : text;
}

// ------------------------------------------------------------------ the flow

describe('copy trading, from the leader to the settlement', () => {
  const browser = useBrowser();
  let leader: RegisteredUser;
  let followerA: RegisteredUser;
  let followerB: RegisteredUser;
  let scale = 2;
  let step = '';

  interface Trip {
    leader: ContractPosition;
    a: CopyRow;
    b: CopyRow;
  }

  /**
   * The leader opens a long; both copies open. Once the price has moved from A's entry the leader
   * closes, and both copies close.
   */
  async function roundTrip(): Promise<Trip> {
    const opened = await openContract(leader, LEADER_ORDER);
    const [a, b] = await Promise.all([
      openedCopy(followerA, opened.id),
      openedCopy(followerB, opened.id),
    ]);
    await until(
      "a tick moving A's copy",
      async () => (await position(followerA, a.position!.id)).unrealizedPnl ?? '0',
      (result) => cmp(result, '0') !== 0,
    );
    await closeContract(leader, opened.id);
    const [closedA, closedB] = await Promise.all([
      closedCopy(followerA, a.id),
      closedCopy(followerB, b.id),
    ]);
    return { leader: await position(leader, opened.id), a: closedA, b: closedB };
  }

  /** The leader's open positions of the settlement phases, each with A's and B's open copies. */
  const held: { leaderId: number; a: CopyRow; b: CopyRow }[] = [];

  /** The leader opens a long and a short at once (a hedge); both followers copy both. */
  async function openPair(): Promise<void> {
    for (const direction of [1, 2]) {
      const opened = await openContract(leader, { ...LEADER_ORDER, direction });
      const [a, b] = await Promise.all([
        openedCopy(followerA, opened.id),
        openedCopy(followerB, opened.id),
      ]);
      expect(a.position!.orderDirection).toBe(direction);
      held.push({ leaderId: opened.id, a, b });
    }
  }

  /**
   * Realizes a result of sign `want` of about `need` or more for follower A: the leader closes
   * whichever of its open positions A's copy of shows such a result (a hedged pair is opened
   * first when none does: one of its sides gains whichever way the price goes). The prices are
   * the feed's own; the leader only chooses what to close and when. Both copies close.
   */
  async function realize(want: 1 | -1, need: string, fresh = false): Promise<void> {
    /** The first of `from` (held entries) whose A copy shows the result wanted, or undefined. */
    const satisfied = async (from: typeof held) => {
      for (const entry of from) {
        const result = (await position(followerA, entry.a.position!.id)).unrealizedPnl ?? '0';
        if (cmp(mul(result, String(want)), need) >= 0) return entry;
      }
      return undefined;
    };
    let chosen = fresh ? undefined : await satisfied(held);
    if (chosen === undefined) {
      await openPair();
      const pair = held.slice(-2);
      chosen = await until(
        `A's copy ${want > 0 ? 'gaining' : 'losing'} ${need}`,
        () => satisfied(pair),
        (entry) => entry !== undefined,
        60_000,
      );
    }
    const [entry] = held.splice(held.indexOf(chosen!), 1);
    await closeContract(leader, entry!.leaderId);
    await Promise.all([closedCopy(followerA, entry!.a.id), closedCopy(followerB, entry!.b.id)]);
  }

  /**
   * Results of sign `want` realized until A's cumulative net P&L is beyond `target` by MOVE
   * (bounded: a tick between the leader's close and the copy's can take some back).
   */
  async function tradeUntil(
    what: string,
    want: 1 | -1,
    target: (relation: CopyRelation) => string,
  ): Promise<CopyRelation> {
    for (let closes = 1; closes <= MAX_CLOSES; closes += 1) {
      const relation = await relationOf(followerA);
      const distance = mul(sub(target(relation), relation.cumPnl), String(want));
      if (cmp(distance, mul(MOVE, '-1')) <= 0) return relation;
      const need = add(distance, MOVE);
      // Losses come from a fresh pair: a side held over a day has moved further than needed.
      await realize(want, cmp(need, MOVE) > 0 ? need : MOVE, want < 0);
    }
    const relation = await relationOf(followerA);
    throw new Error(
      `${what}: not reached in ${MAX_CLOSES} closes (cumulative ${relation.cumPnl}, mark ${relation.hwm})`,
    );
  }

  /**
   * Moves the clock past the next day's settlement time; waits until both followers' daily
   * settlements of that day are written; checks the rule and the balances moved by exactly what
   * was paid. Answers both settlements.
   */
  async function settleNextDay(): Promise<{ a: CopySettlement; b: CopySettlement }> {
    const [relationA, relationB] = await Promise.all([
      relationOf(followerA),
      relationOf(followerB),
    ]);
    const before = await Promise.all([usdt(followerA), usdt(followerB), usdt(leader)]);
    const { time, day } = nextSettlement();
    moveClockTo(time);
    const ofDay = async (user: RegisteredUser) =>
      until(
        `the daily settlement of ${day} for user ${user.userInfo.id}`,
        async () =>
          (await settlements(user)).find(
            (row) => row.reason === SETTLEMENT_REASON.daily && row.day === day,
          ),
        (row) => row !== undefined,
      ) as Promise<CopySettlement>;
    const [settledA, settledB] = await Promise.all([ofDay(followerA), ofDay(followerB)]);
    for (const [settled, relation] of [
      [settledA, relationA],
      [settledB, relationB],
    ] as const) {
      // The inputs are the relation's as it stood: its cumulative and its mark.
      expect(settled).toMatchObject({
        relationId: relation.id,
        traderId: leader.userInfo.id,
        cumPnl: normalize(relation.cumPnl),
        hwmBefore: normalize(relation.hwm),
        rate: RATE,
        owedBefore: '0',
        owedAfter: '0',
      });
      // The rule, worked out here: rate × (cumulative − mark) rounded down when above, else 0.
      const above = gt(relation.cumPnl, relation.hwm);
      const share = above
        ? normalize(toScale(mul(RATE, sub(relation.cumPnl, relation.hwm)), scale, 'down'))
        : '0';
      expect(settled.share).toBe(share);
      expect(settled.hwmAfter).toBe(normalize(above ? relation.cumPnl : relation.hwm));
      expect(settled.paid).toBe(share);
      expect(
        settleProfitShare({ cumPnl: relation.cumPnl, hwm: relation.hwm, rate: RATE, scale }),
      ).toEqual({ share: settled.share, hwmAfter: settled.hwmAfter });
    }
    // The money: each follower paid its share, the leader received both, nothing else moved.
    const after = await Promise.all([usdt(followerA), usdt(followerB), usdt(leader)]);
    expect(after[0]).toBe(normalize(sub(before[0], settledA.paid)));
    expect(after[1]).toBe(normalize(sub(before[1], settledB.paid)));
    expect(after[2]).toBe(normalize(add(before[2], add(settledA.paid, settledB.paid))));
    // The relations carry the new mark.
    const [nowA, nowB] = await Promise.all([relationOf(followerA), relationOf(followerB)]);
    expect(normalize(nowA.hwm)).toBe(settledA.hwmAfter);
    expect(normalize(nowB.hwm)).toBe(settledB.hwmAfter);
    return { a: settledA, b: settledB };
  }

  it(
    'sets up a leader with a 10 % share and two followers in the app',
    { timeout: 240_000 },
    async () => {
      // The operator: one closed trade to apply, any identity level, positions shown at once.
      const settings = await operatorGet<{ maxProfitShareRate: string }>('/copy-trade/settings');
      await operatorPost('/copy-trade/settings/save', {
        maxProfitShareRate: settings.data.maxProfitShareRate,
        minClosedTrades: 1,
        positionDelayMinutes: 0,
      });
      await operatorPost('/identity/requirements/save', { feature: 'copyLeader', minLevel: -1 });
      // Contracts of crypto without fees, both directions: a round trip's result is the market's.
      for (const exType of [1, 2])
        await operatorPost('/fees/save', { productType: 2, positionType: 1, exType, feeRate: '0' });
      const fees =
        await operatorGet<{ productType: number; positionType: number; feeRate: string }[]>(
          '/fees',
        );
      for (const fee of fees.data.filter((row) => row.productType === 2 && row.positionType === 1))
        expect(normalize(fee.feeRate)).toBe('0');

      [leader, followerA, followerB] = await Promise.all([
        fundedUser(2),
        fundedUser(2),
        fundedUser(2),
      ]);
      const products = await apiCall<unknown>('GET', '/api/cryptocurrencyProduct/list', {
        query: { pageNum: '1', pageSize: '100', keyWords: PRODUCT },
      });
      step = normalize(
        (products.rows as { productCode: string; standard: string }[]).find(
          (row) => row.productCode === PRODUCT,
        )!.standard,
      );
      // A track record of one closed trade.
      const first = await openContract(leader, LEADER_ORDER);
      await closeContract(leader, first.id);
      // The trade currency's decimals: the wire writes a margin at them.
      scale = scaleOf(first.margin);

      // The leader applies in the app; the operator approves; the leader sets a 10 % share.
      const page = await browser.newPage({ user: leader });
      await becomeLeader(page, leader, {
        title: 'BTC both ways',
        description: 'Round trips of a few seconds.',
      });

      // The example the follow screen previews with: the leader's latest (closed) position.
      const latest = await apiCall('GET', '/api/copyTrade/trader/positions', {
        query: {
          traderId: String(leader.userInfo.id),
          status: 'closed',
          pageNum: '1',
          pageSize: '1',
        },
      });
      const example = (latest.rows as TraderPosition[])[0]!;
      expect(example.id).toBe(first.id);

      // Follower A: a fixed margin; follower B: a ratio of the leader's margin.
      for (const [user, mode] of [
        [followerA, 'fixed'],
        [followerB, 'ratio'],
      ] as const) {
        const own = await browser.newPage({ user });
        await own.goto(appUrl(`/pages/followOrder/follow?traderId=${leader.userInfo.id}`));
        await own.locator('[data-testid="copy-follow-form"]').waitFor();
        if (mode === 'ratio') {
          await own.locator('[data-testid="copy-mode-2"]').click();
          await own.locator('#copy-ratio').fill(RATIO);
        } else await own.locator('#copy-amount').fill(FIXED_AMOUNT);
        await own.locator('#copy-budget').fill(BUDGET);
        await own.locator('#copy-max-open').fill('4');
        const available = await usdt(user);
        const sized = copyMargin({
          mode: mode === 'fixed' ? 1 : 2,
          amount: mode === 'fixed' ? FIXED_AMOUNT : null,
          ratio: mode === 'ratio' ? RATIO : null,
          leaderMargin: example.margin,
          budgetLeft: BUDGET,
          available,
          scale,
        });
        expect(sized.ok).toBe(true);
        const margin = sized.ok ? sized.margin : '';
        expect(margin).toBe(
          mode === 'fixed'
            ? FIXED_AMOUNT
            : normalize(toScale(mul(example.margin, RATIO), scale, 'down')),
        );
        await expect.poll(() => textOf(own, 'copy-preview-margin')).toBe(shown(margin, scale));
        // No fee: the total is the margin.
        expect(await textOf(own, 'copy-preview-total')).toBe(shown(margin, scale));
        await screenshot(own, `copy-flow-follow-${mode}-en`);
        await own.locator('[data-testid="copy-follow-button"]').click();
        await own.locator('[data-testid="copy-confirm"]').waitFor();
        if (mode === 'fixed')
          expect(await textOf(own, 'copy-confirm-amount')).toBe(shown(FIXED_AMOUNT, scale));
        else expect(await textOf(own, 'copy-confirm-ratio')).toBe(`× ${RATIO}`);
        expect(await textOf(own, 'copy-confirm-rate')).toBe('10.00%');
        await expectOnScreen(own, own.locator('[data-testid="copy-confirm-button"]'));
        await own.locator('[data-testid="copy-confirm-button"]').click();
        await waitForRoute(own, '/pages/followOrder/mine');
        const relation = await relationOf(user);
        expect(relation).toMatchObject({
          traderId: leader.userInfo.id,
          mode: mode === 'fixed' ? 1 : 2,
          status: 1,
          maxOpen: 4,
          cumPnl: expect.any(String),
        });
        expect(normalize(relation.profitShareRate)).toBe(RATE);
        expect(normalize(relation.hwm)).toBe('0');
        expect(normalize(relation[mode === 'fixed' ? 'amount' : 'ratio']!)).toBe(
          mode === 'fixed' ? FIXED_AMOUNT : RATIO,
        );
        expect(relation.scale).toBe(scale);
      }
    },
  );

  it('opens each copy at its own tick with its evidence, and closes it when the leader closes', async () => {
    const trip = await roundTrip();
    const leaderRow = trip.leader;
    expect(leaderRow.status).toBe(2);
    expect(leaderRow.entry).not.toBeNull();
    expect(leaderRow.exit).not.toBeNull();
    for (const [copy, mode] of [
      [trip.a, 'fixed'],
      [trip.b, 'ratio'],
    ] as const) {
      const own = copy.position!;
      // Its own position, beside the leader's as the leader's own row has it.
      expect(own.id).not.toBe(leaderRow.id);
      expect(copy.leader).toMatchObject({
        id: leaderRow.id,
        entryPrice: leaderRow.entryPrice,
        exitPrice: leaderRow.exitPrice,
        margin: leaderRow.margin,
        status: 2,
      });
      // Entry evidence: its own tick's price, sequence and time, at or after the leader's tick.
      expect(own.entry).toMatchObject({
        price: expect.any(String),
        time: expect.any(Number),
        sequence: expect.any(Number),
        source: 'simulated',
      });
      expect(normalize(own.entryPrice!)).toBe(normalize(own.entry!.price));
      expect(own.entry!.sequence).toBeGreaterThanOrEqual(leaderRow.entry!.sequence);
      expect(own.entry!.time).toBeGreaterThanOrEqual(leaderRow.entry!.time);
      // One tick, one price: at the leader's tick the same price, at a later one its own.
      if (own.entry!.sequence === leaderRow.entry!.sequence)
        expect(normalize(own.entry!.price)).toBe(normalize(leaderRow.entry!.price));
      expect(Date.parse(own.openTime!)).toBeGreaterThanOrEqual(Date.parse(leaderRow.openTime!));
      // Sized at its own price from its own margin: A the fixed amount, B leader margin × ratio.
      const sized = copyMargin({
        mode: mode === 'fixed' ? 1 : 2,
        amount: mode === 'fixed' ? FIXED_AMOUNT : null,
        ratio: mode === 'ratio' ? RATIO : null,
        leaderMargin: leaderRow.margin,
        budgetLeft: BUDGET,
        available: '10000',
        scale,
      });
      expect(sized.ok).toBe(true);
      const wanted = sized.ok ? sized.margin : '';
      expect(wanted).toBe(
        mode === 'fixed'
          ? FIXED_AMOUNT
          : normalize(toScale(mul(leaderRow.margin, RATIO), scale, 'down')),
      );
      const preview = contractPreview({
        direction: 1,
        leverage: LEVERAGE,
        price: own.entryPrice!,
        margin: wanted,
        step,
        feeRate: '0',
        maintenanceRate: own.maintenanceRate,
        priceScale: scaleOf(normalize(own.entryPrice!)),
        scale,
      });
      expect(preview.ok).toBe(true);
      if (preview.ok) {
        expect(normalize(own.quantity)).toBe(normalize(preview.preview.quantity));
        expect(normalize(own.margin)).toBe(normalize(preview.preview.margin));
      }
      expect(cmp(own.margin, wanted)).toBeLessThanOrEqual(0);
      expect(normalize(own.openFee)).toBe('0');
      // Closed when the leader closed: its own exit tick, at or after the leader's.
      expect(own.status).toBe(2);
      expect(own.closeReason).toBe(1);
      expect(normalize(own.exitPrice!)).toBe(normalize(own.exit!.price));
      expect(own.exit!.sequence).toBeGreaterThanOrEqual(leaderRow.exit!.sequence);
      expect(Date.parse(own.closeTime!)).toBeGreaterThanOrEqual(Date.parse(leaderRow.closeTime!));
    }

    // The copies screen: A's copy beside the leader's entry, with its own entry and exit ticks.
    const page = await browser.newPage({ user: followerA });
    await page.goto(appUrl('/pages/followOrder/copies'));
    const id = trip.a.id;
    await page.locator(`[data-testid="copy-copy-${id}-entry-tick"]`).waitFor();
    await page.locator(`[data-testid="copy-copy-${id}-exit-tick"]`).waitFor();
    expect(await textOf(page, `copy-copy-${id}-margin`)).toBe(
      shown(trip.a.position!.margin, scale),
    );
    const own = trip.a.position!;
    expect(await textOf(page, `copy-copy-${id}-price`)).toBe(own.entryPrice);
    expect(await textOf(page, `copy-copy-${id}-leader-price`)).toBe(trip.leader.entryPrice);
    expect(await textOf(page, `copy-copy-${id}-leader-margin`)).toBe(
      shown(trip.leader.margin, scale),
    );
    expect(await textOf(page, `copy-copy-${id}-entry-tick-price`)).toBe(own.entry!.price);
    expect(await textOf(page, `copy-copy-${id}-entry-tick-sequence`)).toBe(
      String(own.entry!.sequence),
    );
    expect(await textOf(page, `copy-copy-${id}-entry-tick-source`)).toBe('simulated');
    expect(await textOf(page, `copy-copy-${id}-exit-tick-sequence`)).toBe(
      String(own.exit!.sequence),
    );
    await screenshot(page, 'copy-flow-copies-en');
  });

  it(
    'settles daily: the share only above the mark, nothing below it, only the part above it again',
    { timeout: 480_000 },
    async () => {
      // Above 0: the first settlement pays rate × cumulative, the mark rises to it.
      const up = await tradeUntil('A above 0', 1, () => '0');
      const cumulative = await copies(followerA);
      // The cumulative is the copies' own results (no fees).
      expect(normalize(up.cumPnl)).toBe(
        normalize(
          sum(
            cumulative
              .filter((row) => row.position?.status === 2)
              .map((row) => row.position!.realizedPnl!),
          ),
        ),
      );
      const firstDay = await settleNextDay();
      const first = firstDay.a;
      expect(gt(first.cumPnl, '0')).toBe(true);
      expect(first.hwmBefore).toBe('0');
      expect(isPositive(first.share)).toBe(true);
      expect(first.share).toBe(normalize(toScale(mul(RATE, first.cumPnl), scale, 'down')));
      expect(first.hwmAfter).toBe(first.cumPnl);

      // Below the mark: nothing is paid, the mark stays.
      await tradeUntil('A below the mark', -1, (relation) => relation.hwm);
      const second = (await settleNextDay()).a;
      expect(lt(second.cumPnl, second.hwmBefore)).toBe(true);
      expect(second.hwmBefore).toBe(first.hwmAfter);
      expect(second.share).toBe('0');
      expect(second.paid).toBe('0');
      expect(second.entryId).toBeNull();
      expect(second.hwmAfter).toBe(first.hwmAfter);

      // Above the mark again: only the part above it is shared.
      await tradeUntil('A above the mark', 1, (relation) => relation.hwm);
      const third = (await settleNextDay()).a;
      expect(third.hwmBefore).toBe(first.hwmAfter);
      expect(third.share).toBe(
        normalize(toScale(mul(RATE, sub(third.cumPnl, first.hwmAfter)), scale, 'down')),
      );
      expect(lt(third.share, toScale(mul(RATE, third.cumPnl), scale, 'down'))).toBe(true);
      expect(third.hwmAfter).toBe(third.cumPnl);

      // The leader's dashboard: income from A is what A paid.
      const dashboard = await apiCall<LeadDashboard>('GET', '/api/copyTrade/lead/dashboard', {
        token: leader.token,
      });
      expect(dashboard.code, JSON.stringify(dashboard)).toBe(200);
      const fromA = dashboard.data.followers.find((row) => row.relationId === first.relationId);
      expect(normalize(fromA!.sharePaid)).toBe(normalize(add(first.paid, third.paid)));
      // And per day: the first day's income is what both followers paid.
      const income = dashboard.data.incomePerDay.find((row) => row.day === first.day);
      expect(normalize(income!.paid)).toBe(normalize(add(first.paid, firstDay.b.paid)));

      // The settlements screen: each with its inputs.
      const page = await browser.newPage({ user: followerA });
      await page.goto(appUrl('/pages/followOrder/settlements'));
      for (const settled of [first, second, third]) {
        const card = `copy-settlement-${settled.id}`;
        await page.locator(`[data-testid="${card}"]`).waitFor();
        expect(await textOf(page, `${card}-pnl`)).toBe(signedShown(settled.cumPnl, scale));
        expect(await textOf(page, `${card}-before`)).toBe(shown(settled.hwmBefore, scale));
        expect(await textOf(page, `${card}-after`)).toBe(shown(settled.hwmAfter, scale));
        expect(await textOf(page, `${card}-rate`)).toBe('10.00%');
        expect(await textOf(page, `${card}-share`)).toBe(shown(settled.share, scale));
        expect(await textOf(page, `${card}-paid`)).toBe(shown(settled.paid, scale));
        expect(
          await page
            .locator(`[data-testid="${card}"] [data-testid="copy-settlement-reason"]`)
            .getAttribute('data-status'),
        ).toBe(String(SETTLEMENT_REASON.daily));
      }
      await screenshot(page, 'copy-flow-settlements-en');
    },
  );

  it('unfollows with "close now": the open copy closes and the unfollow settlement is written', async () => {
    const relationB = await relationOf(followerB);
    // Room for one more copy of A (at most four open).
    while (held.length > 2) {
      const entry = held.shift()!;
      await closeContract(leader, entry.leaderId);
      await Promise.all([closedCopy(followerA, entry.a.id), closedCopy(followerB, entry.b.id)]);
    }
    const opened = await openContract(leader, LEADER_ORDER);
    const [copyA, copyB] = await Promise.all([
      openedCopy(followerA, opened.id),
      openedCopy(followerB, opened.id),
    ]);

    const page = await browser.newPage({ user: followerB });
    await page.goto(appUrl('/pages/followOrder/mine'));
    await page.locator(`[data-testid="copy-relation-${relationB.id}-unfollow"]`).click();
    await page.locator('[data-testid="copy-unfollow"]').waitFor();
    await page.locator('[data-testid="copy-unfollow-1"]').click();
    expect(await page.locator('[data-testid="copy-unfollow-1"]').getAttribute('aria-pressed')).toBe(
      'true',
    );
    await screenshot(page, 'copy-flow-unfollow-en');
    await page.locator('.adm-dialog-button-bold').click();

    const ended = await until(
      'B unfollowed',
      () => relationOf(followerB),
      (relation) => relation.status === 2,
    );
    expect(ended.endMode).toBe(1);
    // The copy closed at once, at its own tick, while the leader's position stays open.
    const closed = await closedCopy(followerB, copyB.id);
    expect(closed.position!.closeReason).toBe(1);
    expect(normalize(closed.position!.exitPrice!)).toBe(normalize(closed.position!.exit!.price));
    expect((await position(leader, opened.id)).status).toBe(1);
    // So did B's copies of the leader's positions still open from the settlement days.
    for (const entry of held) {
      await closedCopy(followerB, entry.b.id);
      expect((await position(leader, entry.leaderId)).status).toBe(1);
    }
    expect((await copies(followerB)).filter((row) => row.position?.status === 1)).toEqual([]);
    // The unfollow settlement: the relation's cumulative (this copy included) against its mark.
    const settled = await until(
      'the unfollow settlement',
      async () =>
        (await settlements(followerB)).find(
          (row) => row.relationId === relationB.id && row.reason === SETTLEMENT_REASON.unfollow,
        ),
      (row) => row !== undefined,
    );
    // The relation ends first, then its copies close one by one, then it settles: its
    // cumulative is read again once settled (read at the end it may miss the last closes).
    expect(settled!.cumPnl).toBe(normalize((await relationOf(followerB)).cumPnl));
    expect(settled!.cumPnl).toBe(
      normalize(
        sum(
          (await copies(followerB))
            .filter((row) => row.position?.status === 2)
            .map((row) => row.position!.realizedPnl!),
        ),
      ),
    );
    expect(settled!.hwmBefore).toBe(normalize(relationB.hwm));
    expect(
      settleProfitShare({ cumPnl: settled!.cumPnl, hwm: settled!.hwmBefore, rate: RATE, scale }),
    ).toEqual({ share: settled!.share, hwmAfter: settled!.hwmAfter });
    await page
      .locator(`[data-testid="copy-relation-${relationB.id}"] [data-testid="copy-relation-status"]`)
      .and(page.locator('[data-status="2"]'))
      .waitFor();
    await screenshot(page, 'copy-flow-unfollowed-en');
    await page.goto(appUrl('/pages/followOrder/settlements'));
    const card = `copy-settlement-${settled!.id}`;
    await page.locator(`[data-testid="${card}"]`).waitFor();
    expect(
      await page
        .locator(`[data-testid="${card}"] [data-testid="copy-settlement-reason"]`)
        .getAttribute('data-status'),
    ).toBe(String(SETTLEMENT_REASON.unfollow));
    await screenshot(page, 'copy-flow-settlements-unfollow-en');

    // The leader closes: A's copies follow; B's ended relation copies nothing more.
    await closeContract(leader, opened.id);
    await closedCopy(followerA, copyA.id);
    for (const entry of held.splice(0)) {
      await closeContract(leader, entry.leaderId);
      await closedCopy(followerA, entry.a.id);
    }
    const next = await openContract(leader, LEADER_ORDER);
    await openedCopy(followerA, next.id);
    expect((await copies(followerB)).some((row) => row.leader.id === next.id)).toBe(false);
    await closeContract(leader, next.id);
  });
});
