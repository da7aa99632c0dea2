import { readFileSync, statSync } from 'node:fs';

/** Where services read the time, so tests can move it (code expiry, session expiry, locks). */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock that stands still until moved: for tests. */
export class ManualClock implements Clock {
  constructor(private current = new Date('2026-01-05T12:00:00Z')) {}
  now(): Date {
    return new Date(this.current);
  }
  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
  set(date: Date): void {
    this.current = new Date(date);
  }
}

/** How often at most the offset file is looked at (now() is called on every request). */
export const OFFSET_CHECK_MS = 50;

/**
 * The system time moved by a whole number of milliseconds written in a file: browser tests move
 * the running server's time (subscription windows, allocations, lock-ups) by writing the file
 * (CLOCK_OFFSET_FILE; refused in production). A missing or empty file is no offset. The file is
 * looked at every OFFSET_CHECK_MS at most and read again only when it changed (its inode,
 * modification time or size), so now() stays a Date.now() and an addition. Writers should replace
 * it whole (write a temporary file and rename it over): a reader between a truncation and the
 * write would see an empty file, that is no offset, until the next look; and two writes of the
 * same length in place within one tick of the file system's clock look like one. Text that is not a whole number keeps the
 * last offset and is reported through `onProblem` (at start-up it is an error).
 */
export class OffsetFileClock implements Clock {
  private offsetMs = 0;
  private checkedAt = Number.NEGATIVE_INFINITY;
  /** `<inode>:<mtime ns>:<size>` of the file last read; '' when it was missing. */
  private version: string | undefined;

  constructor(
    private readonly file: string,
    private readonly onProblem: (message: string) => void = () => undefined,
  ) {
    this.offsetMs = this.read(true);
  }

  now(): Date {
    const system = Date.now();
    if (system - this.checkedAt >= OFFSET_CHECK_MS || system < this.checkedAt) {
      this.checkedAt = system;
      this.offsetMs = this.read(false);
    }
    return new Date(system + this.offsetMs);
  }

  private read(first: boolean): number {
    let version: string;
    try {
      const stat = statSync(this.file, { bigint: true });
      version = `${stat.ino}:${stat.mtimeNs}:${stat.size}`;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      this.version = '';
      return 0;
    }
    if (version === this.version) return this.offsetMs;
    this.version = version;
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8').trim();
    } catch (error) {
      // Removed between the look and the read.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
      throw error;
    }
    if (text === '') return 0;
    const offset = /^[+-]?\d{1,15}$/.test(text) ? Number(text) : Number.NaN;
    if (Number.isSafeInteger(offset)) return offset;
    const message = `${this.file} should hold a whole number of milliseconds, not ${JSON.stringify(text.slice(0, 40))}`;
    if (first) throw new Error(message);
    this.onProblem(message);
    return this.offsetMs;
  }
}

/** The clock a server runs on: the system's, or with CLOCK_OFFSET_FILE the offset one (tests). */
export function serverClock(
  offsetFile: string | undefined,
  onProblem?: (message: string) => void,
): Clock {
  return offsetFile ? new OffsetFileClock(offsetFile, onProblem) : systemClock;
}
