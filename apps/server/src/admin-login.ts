/**
 * The first operator of a self-hosted installation: an admin created on first start with a random
 * password, which is printed once and kept in DATA_DIR (mode 600); later starts say where it is.
 */
import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from './config';
import type { Database } from './db/database';
import { systemClock, type Clock } from './lib/clock';
import { newPassword } from './lib/secrets';
import { ensureFirstAdmin, hasOperators } from './modules/admin/service';

export const ADMIN_USERNAME = 'admin';
export const ADMIN_LOGIN_FILE = 'admin-login.txt';

export interface AdminLogin {
  username: string;
  /** Where the first password is kept. */
  file: string;
  /** True when this start created the admin. */
  created: boolean;
  /** The password, only when this start created the admin (print it once). */
  password?: string;
  /** Whether the password file is there. */
  fileExists: boolean;
}

/** Creates the first admin unless an operator exists (see the module comment). */
export async function adminLogin(
  config: Config,
  db: Database,
  clock: Clock = systemClock,
): Promise<AdminLogin> {
  const file = path.join(config.dataDir, ADMIN_LOGIN_FILE);
  const stored = (await readFile(file, 'utf8').catch(() => undefined))?.trim() || undefined;
  if (await hasOperators(db)) {
    return { username: ADMIN_USERNAME, file, created: false, fileExists: stored !== undefined };
  }
  const password = stored ?? newPassword();
  if (!stored) {
    // Written before the account exists, so a crash in between never leaves an admin whose
    // password nobody knows.
    await mkdir(config.dataDir, { recursive: true });
    await writeFile(file, `${password}\n`, { mode: 0o600 });
    await chmod(file, 0o600);
  }
  const created = await ensureFirstAdmin(db, clock, ADMIN_USERNAME, password);
  if (!created && !stored) {
    // Another instance created the first operator meanwhile: this password belongs to nobody.
    await rm(file, { force: true });
  }
  return {
    username: ADMIN_USERNAME,
    file,
    created,
    ...(created ? { password } : {}),
    fileExists: created || stored !== undefined,
  };
}
