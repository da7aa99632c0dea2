/**
 * Loading a screen's code: ChunkLoadError after 120 s or on a failed download, and the loading
 * indicator from 200 ms to 60 s (spec sections 8 and 9), on fake time.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  CHUNK_LOAD_TIMEOUT_MS,
  ChunkLoadError,
  isChunkLoadError,
  loadChunk,
  loadingIndicator,
} from './chunks';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** Tells whether a promise has settled, and how. */
function watch<T>(promise: Promise<T>) {
  const state: { settled: boolean; value?: T; error?: unknown } = { settled: false };
  promise.then(
    (value) => Object.assign(state, { settled: true, value }),
    (error: unknown) => Object.assign(state, { settled: true, error }),
  );
  return state;
}

describe('loadChunk', () => {
  it('fails with ChunkLoadError when the chunk has not arrived after 120 s', async () => {
    expect(CHUNK_LOAD_TIMEOUT_MS).toBe(120_000);
    const state = watch(loadChunk(() => new Promise<never>(() => undefined)));
    await vi.advanceTimersByTimeAsync(119_999);
    expect(state.settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(state.settled).toBe(true);
    expect(state.error).toBeInstanceOf(ChunkLoadError);
    expect(isChunkLoadError(state.error)).toBe(true);
  });

  it('gives the chunk when it arrives in time, and turns a failed download into ChunkLoadError', async () => {
    const slow = watch(
      loadChunk(() => new Promise((resolve) => setTimeout(() => resolve('code'), 119_000))),
    );
    await vi.advanceTimersByTimeAsync(119_000);
    expect(slow).toEqual({ settled: true, value: 'code' });
    // Nothing is left to fire later.
    expect(vi.getTimerCount()).toBe(0);

    const failed = watch(
      loadChunk(() => Promise.reject(new TypeError('Failed to fetch dynamically imported module'))),
    );
    await vi.advanceTimersByTimeAsync(0);
    expect(isChunkLoadError(failed.error)).toBe(true);
    expect((failed.error as Error).cause).toBeInstanceOf(TypeError);
  });
});

describe('loadingIndicator', () => {
  it('shows after 200 ms of loading and gives up after 60 s', () => {
    const seen: boolean[] = [];
    loadingIndicator((visible) => seen.push(visible));
    vi.advanceTimersByTime(199);
    expect(seen).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(seen).toEqual([true]);
    vi.advanceTimersByTime(59_799);
    expect(seen).toEqual([true]);
    vi.advanceTimersByTime(1);
    expect(seen).toEqual([true, false]);
  });

  it('never shows for a load that ends within 200 ms', () => {
    const seen: boolean[] = [];
    const stop = loadingIndicator((visible) => seen.push(visible));
    vi.advanceTimersByTime(150);
    stop();
    vi.advanceTimersByTime(120_000);
    expect(seen).toEqual([false]);
  });
});
