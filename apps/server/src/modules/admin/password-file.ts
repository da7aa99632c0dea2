/**
 * The file that keeps the first operator's first password (DATA_DIR/admin-login.txt, mode 600).
 * Once that password is changed the file must not keep it: a copy of a password that no longer
 * works tells whoever reads the data folder what the operator once chose, and one that still works
 * after the operator believes it changed is worse. The file is then overwritten with a line saying
 * when the password was changed.
 */
import { chmod, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { verifyPassword } from '../../lib/secrets';

export const ADMIN_LOGIN_FILE = 'admin-login.txt';
/** A retired file starts with this; what follows is for the person who opens it. */
const RETIRED_MARK = '#';

export function adminLoginFile(dataDir: string): string {
  return path.join(dataDir, ADMIN_LOGIN_FILE);
}

async function readKept(dataDir: string): Promise<string | undefined> {
  return (await readFile(adminLoginFile(dataDir), 'utf8').catch(() => undefined))?.trim();
}

/** The password the file keeps, or undefined when there is no file or it was retired. */
export async function storedFirstPassword(dataDir: string): Promise<string | undefined> {
  const text = await readKept(dataDir);
  return text && !text.startsWith(RETIRED_MARK) ? text : undefined;
}

/** Whether the file is there and says the password was changed. */
export async function firstPasswordRetired(dataDir: string): Promise<boolean> {
  return (await readKept(dataDir))?.startsWith(RETIRED_MARK) ?? false;
}

/**
 * Retires the file when `isStale` says the password it keeps is no longer the operator's (after a
 * change: it is the one the old hash was made from; at start: the current hash refuses it). True
 * when it did.
 */
export async function retireFirstPassword(
  dataDir: string,
  isStale: (stored: string) => Promise<boolean>,
  changedAt: Date,
  username: string,
): Promise<boolean> {
  const stored = await storedFirstPassword(dataDir);
  if (!stored || !(await isStale(stored))) return false;
  const file = adminLoginFile(dataDir);
  await writeFile(
    file,
    `${RETIRED_MARK} The first password of operator "${username}" was changed at ${changedAt.toISOString()}; this file no longer holds a password.\n`,
    { mode: 0o600 },
  );
  await chmod(file, 0o600);
  return true;
}

/** After a change: the file is stale when it keeps the password the old hash was made from. */
export const keptPasswordWas = (oldHash: string) => (stored: string) =>
  verifyPassword(oldHash, stored);
