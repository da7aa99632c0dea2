/**
 * Loading a screen's code (spec section 8: "ChunkLoadError after 120 s"; section 9: page loading
 * shown after 200 ms, for at most 60 s). A chunk that has not arrived after 120 s, or whose
 * download failed (a lost connection, a build replaced under the page), fails as a
 * ChunkLoadError, which the app answers with a prompt to reload.
 */
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;
/** The loading indicator shows only when loading lasts longer than this (spec §9: 200 ms)… */
export const PAGE_LOADING_DELAY_MS = 200;
/** …and is given up after this (spec §9: 60 s). */
export const PAGE_LOADING_TIMEOUT_MS = 60_000;

export class ChunkLoadError extends Error {
  constructor(cause?: unknown) {
    super('ChunkLoadError', { cause });
    this.name = 'ChunkLoadError';
  }
}

export function isChunkLoadError(error: unknown): error is ChunkLoadError {
  return error instanceof Error && error.name === 'ChunkLoadError';
}

/** Loads a chunk, failing with ChunkLoadError when it fails or takes longer than the limit. */
export function loadChunk<T>(
  load: () => Promise<T>,
  timeoutMs = CHUNK_LOAD_TIMEOUT_MS,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new ChunkLoadError('timeout')), timeoutMs);
    load().then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(new ChunkLoadError(error));
      },
    );
  });
}

/**
 * Whether the loading indicator shows: from `delayMs` after loading starts until it ends, or
 * until `timeoutMs` have passed. Calls `onChange` as that changes; returns the stop function.
 */
export function loadingIndicator(
  onChange: (visible: boolean) => void,
  delayMs = PAGE_LOADING_DELAY_MS,
  timeoutMs = PAGE_LOADING_TIMEOUT_MS,
): () => void {
  const show = setTimeout(() => onChange(true), delayMs);
  const hide = setTimeout(() => onChange(false), timeoutMs);
  return () => {
    clearTimeout(show);
    clearTimeout(hide);
    onChange(false);
  };
}
