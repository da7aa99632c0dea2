/**
 * `npm run ipo:verify -- <offeringId> [--url <server>] [--file <allocation.json>]`: recomputes a
 * new-share offering's published allocation (issue 24) and checks it byte for byte.
 *
 * It reads what the server publishes (GET /api/newProductApplyPurchase/allocation?id=<offering>,
 * or a saved copy with --file), rebuilds the book at close from the published lines, recomputes
 * the canonical input, its SHA-256 seed and the result with the same rule the server allocates
 * with (`allocate` of @bourse/shared), and compares every part. Nothing else is trusted: not the
 * published seed, nor the published result, nor the published counts.
 *
 * Prints the recomputed result (`<id> <lots> <allocated>` per line) and `verified: <seed>`; on a
 * mismatch a `mismatch:` line (standard error) per part that differs, exit code 1; when the
 * allocation cannot be read (no server, an offering not allocated yet, a file that is not JSON),
 * exit code 2.
 * The server: --url, else BOURSE_URL, else http://127.0.0.1:${PORT ?? 8080}.
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import {
  ALLOCATION_RULE,
  allocate,
  bookOf,
  offeringAllocation,
  type OfferingAllocation,
} from '@bourse/shared';

export const ALLOCATION_PATH = '/api/newProductApplyPurchase/allocation';
const FETCH_TIMEOUT_MS = 15_000;

export interface Verification {
  /** The recomputed result text, when the book could be rebuilt. */
  result?: string;
  /** The recomputed seed, when the book could be rebuilt. */
  seed?: string;
  /** One line per part that differs; empty when everything matches. */
  mismatches: string[];
}

/** The first line where two texts differ, shown with both versions. */
function firstDifference(published: string, recomputed: string): string {
  const a = published.split('\n');
  const b = recomputed.split('\n');
  for (let index = 0; index < Math.max(a.length, b.length); index++) {
    if (a[index] !== b[index]) {
      const shown = (line: string | undefined) =>
        line === undefined ? '(no line)' : JSON.stringify(line);
      return `line ${index + 1}: published ${shown(a[index])}, recomputed ${shown(b[index])}`;
    }
  }
  return 'the same lines, different bytes';
}

/**
 * Recomputes a published allocation and lists what differs (nothing when it verifies). The
 * offering id asked for, when given, must be the one published.
 */
export function verifyAllocation(published: unknown, offeringId?: number): Verification {
  const parsed = offeringAllocation.safeParse(published);
  if (!parsed.success) {
    const problems = parsed.error.issues
      .slice(0, 5)
      .map((issue) => `${issue.path.join('.') || '(top)'}: ${issue.message}`);
    return { mismatches: [`not a published allocation: ${problems.join('; ')}`] };
  }
  const data: OfferingAllocation = parsed.data;
  const mismatches: string[] = [];
  if (offeringId !== undefined && data.offeringId !== offeringId)
    mismatches.push(`offering: asked for ${offeringId}, published ${data.offeringId}`);
  if (data.rule !== ALLOCATION_RULE) {
    mismatches.push(`rule: published ${data.rule}, this tool recomputes ${ALLOCATION_RULE}`);
    return { mismatches };
  }
  if (!/^[1-9][0-9]*$/.test(data.lotsOffered)) {
    mismatches.push(`lotsOffered: not a whole number of lots: ${JSON.stringify(data.lotsOffered)}`);
    return { mismatches };
  }
  let recomputed: ReturnType<typeof allocate>;
  try {
    recomputed = allocate({
      offeringId: data.offeringId,
      lotsOffered: BigInt(data.lotsOffered),
      book: bookOf(data.lines),
    });
  } catch (error) {
    mismatches.push(`book: ${error instanceof Error ? error.message : String(error)}`);
    return { mismatches };
  }
  if (data.input !== recomputed.input)
    mismatches.push(`input: ${firstDifference(data.input, recomputed.input)}`);
  if (data.seed !== recomputed.seed)
    mismatches.push(`seed: published ${data.seed}, recomputed ${recomputed.seed}`);
  if (data.result !== recomputed.result)
    mismatches.push(`result: ${firstDifference(data.result, recomputed.result)}`);
  // The published lines in the order published, against the recomputed ones (id order).
  const lines = new Map(recomputed.lines.map((line) => [line.id, line]));
  const ids = data.lines.map((line) => line.id);
  const sortedIds = recomputed.lines.map((line) => line.id);
  if (ids.join('\n') !== sortedIds.join('\n'))
    mismatches.push('lines: not in id order, as the rule publishes them');
  for (const line of data.lines) {
    const own = lines.get(line.id)!;
    if (line.allocated !== String(own.allocated))
      mismatches.push(
        `line ${line.id}: published ${line.allocated} allocated, recomputed ${own.allocated}`,
      );
  }
  const counts: [string, string, string][] = [
    ['lotsRequested', data.lotsRequested, String(recomputed.lotsRequested)],
    ['lotsAllocated', data.lotsAllocated, String(recomputed.lotsAllocated)],
    ['oversubscribed', String(data.oversubscribed), String(recomputed.oversubscribed)],
  ];
  for (const [name, shown, own] of counts)
    if (shown !== own) mismatches.push(`${name}: published ${shown}, recomputed ${own}`);
  return { result: recomputed.result, seed: recomputed.seed, mismatches };
}

/** Why the allocation could not be read (exit code 2). */
export class ReadError extends Error {}

/** The `data` of an answer envelope `{code, msg, data}`, or the object itself (a saved copy). */
function unwrap(body: unknown): unknown {
  if (typeof body === 'object' && body !== null && 'code' in body && 'msg' in body) {
    const envelope = body as { code: unknown; msg: unknown; data?: unknown };
    if (envelope.code !== 200)
      throw new ReadError(`the server refused: ${String(envelope.code)} ${String(envelope.msg)}`);
    return envelope.data;
  }
  return body;
}

export async function fetchAllocation(base: string, offeringId: number): Promise<unknown> {
  const url = `${base.replace(/\/+$/, '')}${ALLOCATION_PATH}?id=${offeringId}`;
  let response: Response;
  try {
    response = await fetch(url, {
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
    });
  } catch (error) {
    const cause = error instanceof Error ? (error.cause ?? error) : error;
    throw new ReadError(
      `cannot reach ${url}: ${cause instanceof Error ? cause.message : String(cause)}`,
    );
  }
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ReadError(`${url} answered HTTP ${response.status} with something other than JSON`);
  }
  try {
    return unwrap(body);
  } catch (error) {
    if (error instanceof ReadError)
      throw new ReadError(`${url}: HTTP ${response.status}, ${error.message}`);
    throw error;
  }
}

export function readAllocationFile(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ReadError(
      `cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  try {
    return unwrap(JSON.parse(text));
  } catch (error) {
    if (error instanceof ReadError) throw new ReadError(`${file}: ${error.message}`);
    throw new ReadError(`${file} is not JSON`);
  }
}

const USAGE =
  'usage: npm run ipo:verify -- <offeringId> [--url <server>] [--file <allocation.json>]';

interface Arguments {
  offeringId?: number;
  url?: string;
  file?: string;
}

function parseArguments(argv: readonly string[]): Arguments {
  const parsed: Arguments = {};
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index]!;
    if (argument === '--url' || argument === '--file') {
      const value = argv[++index];
      if (!value) throw new ReadError(`${argument} needs a value\n${USAGE}`);
      if (argument === '--url') parsed.url = value;
      else parsed.file = value;
    } else if (/^[1-9][0-9]{0,9}$/.test(argument) && parsed.offeringId === undefined) {
      parsed.offeringId = Number(argument);
    } else {
      throw new ReadError(`unexpected argument ${JSON.stringify(argument)}\n${USAGE}`);
    }
  }
  if (parsed.offeringId === undefined && parsed.file === undefined)
    throw new ReadError(`which offering?\n${USAGE}`);
  return parsed;
}

/** The command: its exit code (0 verified, 1 a mismatch, 2 nothing to verify). */
export async function main(
  argv: readonly string[],
  env: Record<string, string | undefined> = process.env,
  out: (text: string) => void = (text) => process.stdout.write(text),
  err: (text: string) => void = (text) => process.stderr.write(text),
): Promise<number> {
  let published: unknown;
  let offeringId: number | undefined;
  try {
    const args = parseArguments(argv);
    offeringId = args.offeringId;
    if (args.file !== undefined) {
      published = readAllocationFile(args.file);
    } else {
      const base = args.url ?? (env.BOURSE_URL || `http://127.0.0.1:${env.PORT || 8080}`);
      published = await fetchAllocation(base, args.offeringId!);
    }
  } catch (error) {
    if (!(error instanceof ReadError)) throw error;
    err(`ipo:verify: ${error.message}\n`);
    return 2;
  }
  const verification = verifyAllocation(published, offeringId);
  if (verification.result !== undefined) out(verification.result);
  if (verification.mismatches.length > 0) {
    for (const mismatch of verification.mismatches) err(`mismatch: ${mismatch}\n`);
    return 1;
  }
  out(`verified: ${verification.seed}\n`);
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error);
      process.exit(2);
    },
  );
}
