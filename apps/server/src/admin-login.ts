/**
 * The first operator of a self-hosted installation: an admin created on first start with a random
 * password, which is printed once and kept in DATA_DIR (mode 600); later starts say where it is.
 */
import { chmod, mkdir, rm, writeFile } from 'node:fs/promises';
import type { Config } from './config';
import type { Database } from './db/database';
import { systemClock, type Clock } from './lib/clock';
import { newPassword, verifyPassword } from './lib/secrets';
import {
  ADMIN_LOGIN_FILE,
  adminLoginFile,
  firstPasswordRetired,
  retireFirstPassword,
  storedFirstPassword,
  ensureFirstAdmin,
  findOperatorPassword,
  hasOperators,
} from './modules/admin';

export const ADMIN_USERNAME = 'admin';
export { ADMIN_LOGIN_FILE };

export interface AdminLogin {
  username: string;
  /** Where the first password is kept. */
  file: string;
  /** True when this start created the admin. */
  created: boolean;
  /** The password, only when this start created the admin (print it once). */
  password?: string;
  /** Whether the password file is there and still holds the password. */
  fileExists: boolean;
  /** Whether the file is there and says the first password was changed. */
  retired: boolean;
}

/** Creates the first admin unless an operator exists (see the module comment). */
export async function adminLogin(
  config: Config,
  db: Database,
  clock: Clock = systemClock,
): Promise<AdminLogin> {
  const file = adminLoginFile(config.dataDir);
  const stored = await storedFirstPassword(config.dataDir);
  if (await hasOperators(db)) {
    // A password changed while this data folder was elsewhere (another instance, an older
    // version) leaves the file behind: it goes as soon as it is seen.
    const operator = stored ? await findOperatorPassword(db, ADMIN_USERNAME) : undefined;
    const retired = operator
      ? await retireFirstPassword(
          config.dataDir,
          async (password) => !(await verifyPassword(operator.passwordHash, password)),
          operator.changedAt ?? clock.now(),
          ADMIN_USERNAME,
        )
      : false;
    return {
      username: ADMIN_USERNAME,
      file,
      created: false,
      fileExists: stored !== undefined && !retired,
      retired: retired || (await firstPasswordRetired(config.dataDir)),
    };
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
    retired: false,
  };
}
