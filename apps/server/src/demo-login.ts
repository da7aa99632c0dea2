/**
 * The demo login of a self-hosted installation: created on first start with a random password,
 * kept in DATA_DIR (mode 600) so every start can print it.
 */
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from './config';
import { newPassword } from './lib/secrets';
import type { AccountService } from './modules/account';

export const DEMO_EMAIL = 'demo@bourse.local';

/** Creates the demo login on first start and returns its password (kept in DATA_DIR, mode 600). */
export async function demoLogin(
  config: Config,
  accounts: AccountService,
): Promise<string | undefined> {
  const file = path.join(config.dataDir, 'demo-login.txt');
  const stored = await readFile(file, 'utf8').catch(() => undefined);
  if (stored) {
    await accounts.ensureDemoLogin(DEMO_EMAIL, stored.trim());
    return stored.trim();
  }
  const password = newPassword();
  await mkdir(config.dataDir, { recursive: true });
  if (!(await accounts.ensureDemoLogin(DEMO_EMAIL, password))) return undefined;
  await writeFile(file, `${password}\n`, { mode: 0o600 });
  await chmod(file, 0o600);
  return password;
}
