/**
 * The first operator's first password, kept in DATA_DIR/admin-login.txt, leaves the file once it
 * is changed: by the operator, by another admin's reset, or (seen at the next start) elsewhere.
 * The tests run in order on one installation; each puts the then-current password in the file.
 */
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_LOGIN_FILE, ADMIN_USERNAME, adminLogin } from '../src/admin-login';
import { hashPassword } from '../src/lib/secrets';
import { createTestApp, type TestApp } from './helpers';
import { adminApiCall, enrolTwoFactor, operatorReady, operatorSignIn } from './support/admin-api';

let t: TestApp;
let dir: string;
let file: string;
/** The admin's password as the file should keep it before each change. */
let kept: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'bourse-admin-file-'));
  t = await createTestApp({ env: { DATA_DIR: dir } });
  const seeded = await adminLogin(t.config, t.db, t.clock);
  kept = seeded.password!;
  file = path.join(dir, ADMIN_LOGIN_FILE);
  expect((await readFile(file, 'utf8')).trim()).toBe(kept);
});

afterAll(async () => {
  await t.close();
  await rm(dir, { recursive: true, force: true });
});

async function expectRetired(): Promise<void> {
  const text = await readFile(file, 'utf8');
  expect(text).not.toContain(kept);
  expect(text).toMatch(/^# The first password of operator "admin" was changed at \d{4}-\d\d-\d\dT/);
  expect((await stat(file)).mode & 0o777).toBe(0o600);
  // A later start neither shows a password nor says the file holds one.
  const again = await adminLogin(t.config, t.db, t.clock);
  expect(again).toMatchObject({ created: false, fileExists: false, retired: true });
  expect(again.password).toBeUndefined();
}

/** Puts the admin's current password back in the file, as a first start would have. */
async function keep(password: string): Promise<void> {
  kept = password;
  await writeFile(file, `${password}\n`, { mode: 0o600 });
}

describe('the first password file', () => {
  it('stays when another operator changes their own password', async () => {
    // The clerk is made without the admin, who could call nothing before changing the password.
    await t.db.query(
      `INSERT INTO operator (username, password_hash, roles, created_at, updated_at)
       VALUES ('clerk', $1, '{finance}', now(), now())`,
      [await hashPassword('Clerk password 99')],
    );
    const clerk = await operatorSignIn(t.app, 'clerk', 'Clerk password 99');
    const changed = await adminApiCall(t.app, 'POST', '/auth/changePassword', {
      token: clerk,
      json: { oldPassword: 'Clerk password 99', newPassword: 'Clerk password 100' },
    });
    expect(changed.status).toBe(200);
    expect((await readFile(file, 'utf8')).trim()).toBe(kept);
  });

  it('no longer holds the password once the admin changes it', async () => {
    const token = await operatorSignIn(t.app, ADMIN_USERNAME, kept);
    const changed = await adminApiCall(t.app, 'POST', '/auth/changePassword', {
      token,
      json: { oldPassword: kept, newPassword: 'Quiet harbour 1789' },
    });
    expect(changed.status).toBe(200);
    await expectRetired();
  });

  it('no longer holds it once another admin resets it', async () => {
    await keep('Quiet harbour 1789');
    const token = await operatorSignIn(t.app, ADMIN_USERNAME, kept);
    await enrolTwoFactor(t.app, token, ADMIN_USERNAME, kept);
    const created = await adminApiCall(t.app, 'POST', '/operators/create', {
      token,
      json: { username: 'second', password: 'Second admin 4711', roles: ['admin'] },
    });
    expect(created.status).toBe(200);
    const second = await operatorReady(t.app, 'second', 'Second admin 4711');
    const reset = await adminApiCall(t.app, 'POST', '/operators/resetPassword', {
      token: second,
      json: { id: (await adminId())!, password: 'Reset by second 22' },
    });
    expect(reset.status).toBe(200);
    await expectRetired();
  });

  it('is retired at the next start when the password was changed while it was elsewhere', async () => {
    await keep('Reset by second 22');
    await t.db.query("UPDATE operator SET password_hash = $1 WHERE username = 'admin'", [
      await hashPassword('Changed elsewhere 5'),
    ]);
    const started = await adminLogin(t.config, t.db, t.clock);
    expect(started).toMatchObject({ created: false, fileExists: false, retired: true });
    await expectRetired();
  });
});

async function adminId(): Promise<number | undefined> {
  const { rows } = await t.db.query<{ id: number }>(
    "SELECT id FROM operator WHERE username = 'admin'",
  );
  return rows[0]?.id;
}
