/**
 * The import boundaries of eslint.config.js, each shown failing on a deliberately wrong import
 * (and passing on the right one), as the linter sees a file at that place in the repository:
 * a module's internals from another module, a repo or the ledger from routes, one web feature
 * from another, and an app from packages/shared; then the rules that are not about imports: no
 * API path in web code, and no SQL in a server module outside its repo.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: root });
});

/** The boundary messages ESLint gives `code` placed at `file` (a path from the repository root). */
async function boundaryErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result!.messages
    .filter((message) => message.ruleId === 'import-x/no-restricted-paths')
    .map((message) => message.message);
}

describe('import boundaries', () => {
  it("refuses a module's internals from another module, and takes its index", async () => {
    const file = 'apps/server/src/modules/wallet/boundary-probe.ts';
    expect(await boundaryErrors(file, "export { findUserById } from '../account/repo';\n")).toEqual(
      [expect.stringContaining('through its index.ts')],
    );
    expect(await boundaryErrors(file, "export { AccountService } from '../account';\n")).toEqual(
      [],
    );
    // From outside the modules too, and however deep the file sits.
    expect(
      await boundaryErrors(
        'apps/server/src/market/providers/boundary-probe.ts',
        "export { SettingsService } from '../../modules/settings/service';\n",
      ),
    ).toEqual([expect.stringContaining('through its index.ts')]);
  });

  it('refuses a repo, the database or the ledger from routes, whatever the file is called', async () => {
    for (const [file, code] of [
      ['apps/server/src/modules/account/routes.ts', "export { findUserById } from './repo';\n"],
      [
        'apps/server/src/modules/trading/spot-routes.ts',
        "export * as ledger from '../../ledger/ledger';\n",
      ],
      [
        'apps/server/src/modules/wallet/routes.ts',
        "export type { Database } from '../../db/database';\n",
      ],
    ] as const) {
      expect(await boundaryErrors(file, code), `${file}: ${code}`).toEqual([
        expect.stringContaining('Routes call services'),
      ]);
    }
    expect(
      await boundaryErrors(
        'apps/server/src/modules/wallet/routes.ts',
        "export { WalletService } from './service';\n",
      ),
    ).toEqual([]);
  });

  it('refuses one web feature importing another, at any depth', async () => {
    expect(
      await boundaryErrors(
        'apps/web/src/features/market/boundary-probe.ts',
        "export { login } from '../account/api';\n",
      ),
    ).toEqual([expect.stringContaining('A feature never imports another feature')]);
    expect(
      await boundaryErrors(
        'apps/web/src/features/market/deeper/boundary-probe.ts',
        "export { login } from '../../account/api';\n",
      ),
    ).toEqual([expect.stringContaining('A feature never imports another feature')]);
    expect(
      await boundaryErrors(
        'apps/web/src/features/market/boundary-probe.ts',
        "export { api } from '../../api';\n",
      ),
    ).toEqual([]);
  });

  it('refuses an app from packages/shared', async () => {
    expect(
      await boundaryErrors(
        'packages/shared/src/boundary-probe.ts',
        "export { paths } from '../../../apps/web/src/config/paths';\n",
      ),
    ).toEqual([expect.stringContaining('packages/shared imports no app')]);
    expect(
      await boundaryErrors(
        'packages/shared/src/boundary-probe.ts',
        "export { add } from './money';\n",
      ),
    ).toEqual([]);
  });

  it('refuses a path of the API in web code: calls go through the route table', async () => {
    const pathErrors = async (file: string, code: string) => {
      const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
      return result!.messages
        .filter((message) => message.ruleId === 'no-restricted-syntax')
        .map((message) => message.message);
    };
    for (const code of [
      "export const cards = () => api.page('/api/userBank/list');\n",
      'export const detail = (id: number) => `/api/userWithdraw/detail?id=${id}`;\n',
      "export const operators = '/admin-api/operators/list';\n",
    ]) {
      expect(await pathErrors('apps/web/src/features/wallet/probe.ts', code), code).toEqual([
        expect.stringContaining('api.call'),
      ]);
    }
    expect(
      await pathErrors(
        'apps/web/src/features/wallet/probe.ts',
        'export const cards = () => api.call(paymentMethodsApi.bankCards);\n',
      ),
    ).toEqual([]);
  });

  it('refuses SQL outside a repo in a server module: a statement run or a clause written', async () => {
    const sqlErrors = async (file: string, code: string) => {
      const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
      return result!.messages
        .filter((message) => message.ruleId === 'no-restricted-syntax')
        .map((message) => message.message);
    };
    for (const code of [
      'export const run = (db: any, statement: string) => db.query(statement);\n',
      'export const clause = (column: string) => ` WHERE ${column} = $1`;\n',
      "export const lock = 'LOCK TABLE operator IN SHARE ROW EXCLUSIVE MODE';\n",
    ]) {
      expect(await sqlErrors('apps/server/src/modules/wallet/withdraw.ts', code), code).toEqual([
        expect.stringContaining('SQL only in repos'),
      ]);
    }
    // The same text is at home in a repo; a regular expression's exec is not SQL.
    expect(
      await sqlErrors(
        'apps/server/src/modules/wallet/repo.ts',
        "export const count = (db: any) => db.query('SELECT count(*) FROM app_user');\n",
      ),
    ).toEqual([]);
    expect(
      await sqlErrors(
        'apps/server/src/modules/account/service.ts',
        'export const split = (text: string) => /^(\\d+)-(\\d+)$/.exec(text);\n',
      ),
    ).toEqual([]);
  });
});
