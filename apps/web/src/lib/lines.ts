/**
 * API lines (spec section 1): the server's address plus the alternative lines the operator
 * configures (`API_LINES`, delivered in site info). The chosen index is kept on the device and
 * selects the base address of every request. Line 0 is always the server that served the app.
 */
import { getItem, setItem, STORAGE_KEY } from './storage';

export interface ApiLine {
  name: string;
  /** Base address without a trailing slash; '' for the server that served the app. */
  url: string;
}

export const HOME_LINE: ApiLine = { name: '', url: '' };

export function apiLines(): ApiLine[] {
  const extra = getItem<ApiLine[]>(STORAGE_KEY.apiLines);
  return [HOME_LINE, ...(Array.isArray(extra) ? extra : [])];
}

/** Remembers the lines the server offers; a chosen line that disappeared falls back to line 0. */
export function rememberApiLines(lines: readonly ApiLine[]): void {
  setItem(
    STORAGE_KEY.apiLines,
    lines.filter((line) => typeof line?.url === 'string' && /^https?:\/\//.test(line.url)),
  );
  if (lineIndex() >= apiLines().length) setItem(STORAGE_KEY.lineIndex, 0);
}

export function lineIndex(): number {
  const index = getItem<number>(STORAGE_KEY.lineIndex);
  return typeof index === 'number' && Number.isInteger(index) && index >= 0 ? index : 0;
}

export function chooseLine(index: number): void {
  setItem(STORAGE_KEY.lineIndex, index >= 0 && index < apiLines().length ? index : 0);
}

export function baseUrl(): string {
  return apiLines()[lineIndex()]?.url ?? '';
}

/** Round-trip time of a line's health check in milliseconds, or null when it does not answer. */
export async function measureLatency(line: ApiLine, timeoutMs = 5000): Promise<number | null> {
  const started = performance.now();
  try {
    const response = await fetch(`${line.url}/healthz`, {
      cache: 'no-store',
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!response.ok) return null;
    return Math.round(performance.now() - started);
  } catch {
    return null;
  }
}
