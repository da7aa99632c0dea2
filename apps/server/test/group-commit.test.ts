/**
 * Group commit without a database: which writes go together, in which order the answers come
 * back, what a failed group does, and that lanes work side by side. The contract tests check the
 * same through PostgreSQL and PGlite (fewer transactions than orders, each order its own answer).
 */
import { describe, expect, it } from 'vitest';
import { GroupCommit, type GroupWriter } from '../src/db/group';

interface Item {
  user: number;
  value: number;
}

/** A writer that records its calls; `refuse` makes a value fail, alone or in a group. */
function recordingWriter(refuse = new Set<number>()) {
  const calls: { kind: 'one' | 'many'; values: number[] }[] = [];
  let inFlight = 0;
  let mostInFlight = 0;
  const release: (() => void)[] = [];
  let hold = false;
  const wait = async () => {
    inFlight += 1;
    mostInFlight = Math.max(mostInFlight, inFlight);
    if (hold) await new Promise<void>((resolve) => release.push(resolve));
    else await new Promise((resolve) => setTimeout(resolve, 1));
    inFlight -= 1;
  };
  const writer: GroupWriter<Item, string> = {
    async one(item) {
      calls.push({ kind: 'one', values: [item.value] });
      await wait();
      if (refuse.has(item.value)) throw new Error(`refused ${item.value}`);
      return `stored ${item.value}`;
    },
    async many(items) {
      calls.push({ kind: 'many', values: items.map((item) => item.value) });
      await wait();
      if (items.some((item) => refuse.has(item.value))) throw new Error('group refused');
      return items.map((item) => `stored ${item.value}`);
    },
  };
  return {
    writer,
    calls,
    mostInFlight: () => mostInFlight,
    holdAll: () => (hold = true),
    releaseAll: () => {
      hold = false;
      release.splice(0).forEach((resolve) => resolve());
    },
  };
}

const oneLane = { lanes: 1, laneOf: () => 0 };

describe('group commit', () => {
  it('writes a lone item on its own, at once', async () => {
    const { writer, calls } = recordingWriter();
    const group = new GroupCommit(writer, oneLane);
    expect(await group.write({ user: 1, value: 7 })).toBe('stored 7');
    expect(calls).toEqual([{ kind: 'one', values: [7] }]);
  });

  it('writes items of the same moment together and answers each in its order', async () => {
    const { writer, calls } = recordingWriter();
    const group = new GroupCommit(writer, oneLane);
    const answers = await Promise.all(
      [1, 2, 3, 4].map((value) => group.write({ user: value, value })),
    );
    expect(answers).toEqual(['stored 1', 'stored 2', 'stored 3', 'stored 4']);
    expect(calls).toEqual([{ kind: 'many', values: [1, 2, 3, 4] }]);
  });

  it('queues what arrives while a group is in the database, then sends it as the next group', async () => {
    const { writer, calls } = recordingWriter();
    const group = new GroupCommit(writer, oneLane);
    const first = Promise.all([1, 2].map((value) => group.write({ user: value, value })));
    // After the first group has gone out.
    await new Promise((resolve) => setImmediate(resolve));
    const later = Promise.all([3, 4, 5].map((value) => group.write({ user: value, value })));
    expect(await first).toEqual(['stored 1', 'stored 2']);
    expect(await later).toEqual(['stored 3', 'stored 4', 'stored 5']);
    expect(calls).toEqual([
      { kind: 'many', values: [1, 2] },
      { kind: 'many', values: [3, 4, 5] },
    ]);
  });

  it('runs each item of a failed group on its own, so one refusal refuses only itself', async () => {
    const { writer, calls } = recordingWriter(new Set([2]));
    const group = new GroupCommit(writer, oneLane);
    const answers = await Promise.allSettled(
      [1, 2, 3].map((value) => group.write({ user: value, value })),
    );
    expect(answers).toEqual([
      { status: 'fulfilled', value: 'stored 1' },
      { status: 'rejected', reason: new Error('refused 2') },
      { status: 'fulfilled', value: 'stored 3' },
    ]);
    expect(calls).toEqual([
      { kind: 'many', values: [1, 2, 3] },
      { kind: 'one', values: [1] },
      { kind: 'one', values: [2] },
      { kind: 'one', values: [3] },
    ]);
  });

  it('keeps at most one group per lane in the database, the lanes side by side', async () => {
    const recorder = recordingWriter();
    const group = new GroupCommit(recorder.writer, {
      lanes: 2,
      laneOf: (item: Item) => item.user % 2,
      maxGroup: 2,
    });
    recorder.holdAll();
    const answers = Promise.all(
      [1, 2, 3, 4, 5, 6].map((value) => group.write({ user: value, value })),
    );
    await new Promise((resolve) => setTimeout(resolve, 10));
    // Lane 1 (odd users) and lane 0 (even users) each sent their first group of two.
    expect(recorder.mostInFlight()).toBe(2);
    expect(recorder.calls).toEqual([
      { kind: 'many', values: [1, 3] },
      { kind: 'many', values: [2, 4] },
    ]);
    recorder.releaseAll();
    expect(await answers).toEqual([1, 2, 3, 4, 5, 6].map((value) => `stored ${value}`));
    expect(recorder.mostInFlight()).toBe(2);
    expect(recorder.calls.slice(2).map((call) => call.values)).toEqual([[5], [6]]);
  });
});
