/**
 * `npm run ipo:verify` (tools/ipo-verify.ts): the command recomputes a published allocation from
 * its book and compares it byte for byte. Run as a user runs it, against a small HTTP server
 * answering as GET /api/newProductApplyPurchase/allocation does, with an honest allocation, with
 * tampered ones, and with nothing to read.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allocate, type BookLine, type OfferingAllocation } from '@bourse/shared';
import { main, verifyAllocation } from '../../../tools/ipo-verify';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** An allocation as the server publishes it (lots as decimal strings). */
function published(offeringId: number, lotsOffered: bigint, book: BookLine[]): OfferingAllocation {
  const allocation = allocate({ offeringId, lotsOffered, book });
  return {
    offeringId,
    code: 'NOVAUSDT',
    rule: allocation.rule,
    lotsOffered: String(lotsOffered),
    lotsRequested: String(allocation.lotsRequested),
    lotsAllocated: String(allocation.lotsAllocated),
    oversubscribed: allocation.oversubscribed,
    input: allocation.input,
    seed: allocation.seed,
    result: allocation.result,
    lines: allocation.lines.map((line) => ({
      id: line.id,
      lots: String(line.lots),
      allocated: String(line.allocated),
    })),
    allocatedAt: '2026-11-20T14:30:00.000Z',
    mySubscriptionIds: [],
  };
}

/** Three subscribers asking 13 lots for 10: oversubscribed. */
const BOOK: BookLine[] = [
  { id: '9f86d081884c7d65', lots: 5n },
  { id: '2c26b46b68ffc68f', lots: 3n },
  { id: 'fcde2b2edba56bf4', lots: 4n },
  { id: '0a5b3c9e1f2d4e6a', lots: 1n },
];
const HONEST = published(12, 10n, BOOK);

/** Offerings the test server publishes, by id: the honest one and tampered copies. */
const offerings = new Map<number, OfferingAllocation>();
offerings.set(12, HONEST);
// Offering 13, the same book: one subscriber's lot moved to another, in the lines and the result
// alike (the input and the seed left as the rule gives them).
const moved = published(13, 10n, BOOK);
moved.lines[0]!.allocated = String(Number(moved.lines[0]!.allocated) + 1);
moved.lines[1]!.allocated = String(Number(moved.lines[1]!.allocated) - 1);
moved.result = moved.lines.map((line) => `${line.id} ${line.lots} ${line.allocated}\n`).join('');
offerings.set(13, moved);

let server: Server;
let base: string;
let dir: string;
const requests: string[] = [];

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'bourse-ipo-verify-'));
  server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    requests.push(`${url.pathname}${url.search}`);
    const send = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    if (url.pathname !== '/api/newProductApplyPurchase/allocation')
      return send(404, { code: 404, msg: 'hint_notFound' });
    const id = Number(url.searchParams.get('id'));
    if (id === 14) return send(422, { code: 422, msg: 'hint_newShareNotAllocated' });
    const data = offerings.get(id);
    if (!data) return send(404, { code: 404, msg: 'hint_notFound' });
    send(200, { code: 200, msg: 'hint_success', data });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the command as `npm run ipo:verify -- …` does (or through npm itself). */
function run(args: string[], env: Record<string, string> = {}, throughNpm = false): Promise<Run> {
  const [command, prefix] = throughNpm
    ? ['npm', ['run', '--silent', 'ipo:verify', '--']]
    : [process.execPath, ['--import', 'tsx', 'tools/ipo-verify.ts']];
  return new Promise((resolve) => {
    execFile(
      command,
      [...prefix, ...args],
      {
        cwd: repoRoot,
        env: { ...process.env, BOURSE_URL: '', PORT: '', ...env },
        timeout: 120_000,
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** The command's main() in this process (what each run would print and return). */
async function runHere(args: string[], env: Record<string, string> = {}): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const code = await main(
    args,
    env,
    (text) => (stdout += text),
    (text) => (stderr += text),
  );
  return { code, stdout, stderr };
}

describe('npm run ipo:verify', () => {
  it('recomputes an honest allocation byte for byte: the result, then verified and the seed', async () => {
    const { code, stdout, stderr } = await run(['12', '--url', base]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toBe(`${HONEST.result}verified: ${HONEST.seed}\n`);
    expect(requests).toContain('/api/newProductApplyPurchase/allocation?id=12');
  });

  it('runs as the package script, finding the server from BOURSE_URL', async () => {
    const { code, stdout } = await run(['12'], { BOURSE_URL: base }, true);
    expect(code).toBe(0);
    expect(stdout).toBe(`${HONEST.result}verified: ${HONEST.seed}\n`);
  });

  it('fails with exit code 1 and says what differs when the allocation was tampered with', async () => {
    const { code, stdout, stderr } = await run(['13', '--url', base]);
    expect(code).toBe(1);
    // The recomputed result is printed; the published one differs from it on its first line.
    const honest = published(13, 10n, BOOK);
    expect(stdout).toBe(honest.result);
    expect(stdout).not.toContain('verified');
    expect(stderr).toContain(
      `mismatch: result: line 1: published "${moved.result.split('\n')[0]}", recomputed "${honest.result.split('\n')[0]}"`,
    );
    expect(stderr).toContain(
      `mismatch: line ${moved.lines[0]!.id}: published ${moved.lines[0]!.allocated} allocated, recomputed ${honest.lines[0]!.allocated}`,
    );
    expect(stderr).toContain(`mismatch: line ${moved.lines[1]!.id}: published`);
    // The input and the seed were left alone.
    expect(stderr).not.toContain('mismatch: input');
    expect(stderr).not.toContain('mismatch: seed');
  });

  it('reads a saved copy with --file (the envelope or its data)', async () => {
    const envelope = path.join(dir, 'allocation-12.json');
    writeFileSync(envelope, JSON.stringify({ code: 200, msg: 'hint_success', data: HONEST }));
    const data = path.join(dir, 'allocation-12-data.json');
    writeFileSync(data, JSON.stringify(HONEST, null, 2));
    for (const result of [await run(['--file', envelope]), await runHere(['12', '--file', data])]) {
      expect(result.code).toBe(0);
      expect(result.stdout).toBe(`${HONEST.result}verified: ${HONEST.seed}\n`);
    }
    // The offering asked for must be the one in the file.
    const other = await runHere(['7', '--file', data]);
    expect(other.code).toBe(1);
    expect(other.stderr).toContain('mismatch: offering: asked for 7, published 12');
  });

  it('exits 2 with a clear message when there is nothing to verify', async () => {
    const notAllocated = await runHere(['14'], { BOURSE_URL: base });
    expect(notAllocated.code).toBe(2);
    expect(notAllocated.stderr).toContain('hint_newShareNotAllocated');
    const unknown = await runHere(['99', '--url', base]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('hint_notFound');
    // No server there: the port of a server just closed.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const unreachable = await run(['12'], { PORT: String(port) });
    expect(unreachable.code).toBe(2);
    expect(unreachable.stderr).toContain(`cannot reach http://127.0.0.1:${port}/api/`);
    const missing = await runHere(['--file', path.join(dir, 'none.json')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('cannot read');
    const notJson = path.join(dir, 'not-json.json');
    writeFileSync(notJson, '<html>');
    expect((await runHere(['--file', notJson])).stderr).toContain('is not JSON');
    const usage = await runHere([]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('usage: npm run ipo:verify -- <offeringId>');
  });
});

describe('verifyAllocation', () => {
  const variant = (change: (copy: OfferingAllocation) => void) => {
    const copy = structuredClone(HONEST);
    change(copy);
    return verifyAllocation(copy).mismatches;
  };

  it('verifies what the rule published', () => {
    expect(verifyAllocation(HONEST, 12)).toEqual({
      result: HONEST.result,
      seed: HONEST.seed,
      mismatches: [],
    });
    // Not oversubscribed, and an empty book, verify too.
    expect(verifyAllocation(published(3, 100n, BOOK)).mismatches).toEqual([]);
    expect(verifyAllocation(published(4, 100n, [])).mismatches).toEqual([]);
  });

  it('finds each part that was changed', () => {
    expect(variant((copy) => (copy.seed = `${'0'.repeat(63)}1`))).toEqual([
      `seed: published ${'0'.repeat(63)}1, recomputed ${HONEST.seed}`,
    ]);
    // A lot count changed in the book: its input, seed and result no longer follow.
    const lots = variant((copy) => (copy.lines[2]!.lots = '40'));
    expect(lots.some((line) => line.startsWith('input: line 5'))).toBe(true);
    expect(lots.some((line) => line.startsWith('seed: '))).toBe(true);
    // The input text edited alone.
    expect(variant((copy) => (copy.input = copy.input.replace(' 10\n', ' 11\n')))).toEqual([
      'input: line 2: published "12 11", recomputed "12 10"',
    ]);
    // The lots offered changed: a different seed and allocation.
    const offered = variant((copy) => (copy.lotsOffered = '11'));
    expect(offered.some((line) => line.startsWith('seed: '))).toBe(true);
    expect(variant((copy) => (copy.lotsAllocated = '9'))).toEqual([
      'lotsAllocated: published 9, recomputed 10',
    ]);
    expect(variant((copy) => (copy.oversubscribed = false))).toEqual([
      'oversubscribed: published false, recomputed true',
    ]);
    expect(variant((copy) => copy.lines.reverse())).toContain(
      'lines: not in id order, as the rule publishes them',
    );
    expect(variant((copy) => (copy.rule = 'bourse-ipo-2'))).toEqual([
      'rule: published bourse-ipo-2, this tool recomputes bourse-ipo-1',
    ]);
    expect(variant((copy) => (copy.lines[1]!.id = copy.lines[0]!.id))[0]).toMatch(/^book: .*twice/);
    expect(variant((copy) => (copy.lines[1]!.lots = '0'))[0]).toMatch(/^book: .*whole number/);
    expect(verifyAllocation({ seed: 'x' }).mismatches[0]).toMatch(/^not a published allocation/);
  });
});
