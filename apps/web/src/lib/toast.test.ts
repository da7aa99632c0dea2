/**
 * The toast line: the user's own toasts are said at once, over what is on screen; toasts that
 * arrive on their own wait for the one on screen to end and follow each other, none lost.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { toastLine } from './toast';

let shown: string[];
let line: ReturnType<typeof toastLine>;

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
  shown = [];
  line = toastLine(
    (message) => shown.push(`${Date.now()}:${message}`),
    () => Date.now(),
  );
});
afterEach(() => {
  vi.useRealTimers();
});

describe('toast line', () => {
  it('says an arrival at once when nothing is on screen', () => {
    line.after('deposit approved', 2000);
    expect(shown).toEqual(['0:deposit approved']);
  });

  it('keeps an arrival until the toast on screen ends, then says it', () => {
    line.now('position closed', 2000);
    vi.advanceTimersByTime(500);
    line.after('position closed at 64000', 2000);
    expect(shown).toEqual(['0:position closed']);
    vi.advanceTimersByTime(1499);
    expect(shown).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(shown).toEqual(['0:position closed', '2000:position closed at 64000']);
  });

  it('says several arrivals one after another', () => {
    line.after('first', 2000);
    line.after('second', 1500);
    line.after('third', 700);
    vi.advanceTimersByTime(10_000);
    expect(shown).toEqual(['0:first', '2000:second', '3500:third']);
  });

  it("lets the user's own toast cut in, and the waiting one follows it", () => {
    line.after('first', 2000);
    line.after('second', 2000);
    vi.advanceTimersByTime(1000);
    line.now('copied', 1500);
    vi.advanceTimersByTime(10_000);
    expect(shown).toEqual(['0:first', '1000:copied', '2500:second']);
  });
});
