// ESLint: TypeScript rules plus the import boundaries of ARCHITECTURE.md (conventions 1 and 9):
// shared imports no app; a server module is reached only through its index.ts; routes never
// import repos, the database or the ledger; a web feature never imports another; the ledger and
// the HTTP layer never reach into domain modules. The boundaries are checked on resolved paths
// (eslint-plugin-import-x), so an import of any depth or spelling is caught, and the lists of
// modules and features are read from the folders, so a new one is covered from its first file.
// apps/server/test/lint-boundaries.test.ts shows each rule failing on a wrong import.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';

const root = path.dirname(fileURLToPath(import.meta.url));
const folders = (dir) =>
  readdirSync(path.join(root, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
const entries = (dir) => readdirSync(path.join(root, dir)).map((name) => `${dir}/${name}`);

const SERVER = 'apps/server/src';
const serverModules = folders(`${SERVER}/modules`);
const webFeatures = folders('apps/web/src/features');
const serverOutsideModules = entries(SERVER).filter((entry) => entry !== `${SERVER}/modules`);

const boundaryZones = [
  // A module is reached only through its index.ts, from other modules and the rest of the server.
  ...serverModules.map((name) => ({
    target: [
      ...serverOutsideModules,
      ...serverModules
        .filter((other) => other !== name)
        .map((other) => `${SERVER}/modules/${other}`),
    ],
    from: `${SERVER}/modules/${name}`,
    except: ['./index.ts'],
    message: `Import the ${name} module through its index.ts, never its files.`,
  })),
  // Routes call services: SQL, the database and the ledger stay below them.
  {
    target: [`${SERVER}/modules/**/*routes*.ts`, `${SERVER}/modules/**/*router*.ts`],
    from: [`${SERVER}/ledger/**`, `${SERVER}/db/**`, `${SERVER}/modules/**/*repo*.ts`],
    message: 'Routes call services; SQL and money stay below them.',
  },
  // A web feature never imports another one.
  ...webFeatures.map((name) => ({
    target: `apps/web/src/features/${name}`,
    from: webFeatures
      .filter((other) => other !== name)
      .map((other) => `apps/web/src/features/${other}`),
    message: 'A feature never imports another feature: move what both need below features.',
  })),
  // packages/shared imports no app.
  { target: 'packages/shared', from: 'apps', message: 'packages/shared imports no app.' },
];

const restrict = (patterns) => ({
  'no-restricted-imports': ['error', { patterns }],
});

// Text that starts like a SQL statement or clause (upper-case keywords, as our SQL is written).
const SQL_TEXT = String.raw`/^\s*(SELECT|INSERT|UPDATE|DELETE|WITH|LOCK|WHERE|AND|OR|ORDER BY|JOIN|LEFT JOIN|FROM)\s/`;

const WEB_LAYERS_BELOW_FEATURES = ['api', 'components', 'config', 'hooks', 'i18n', 'lib', 'test'];

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      eqeqeq: ['error', 'always'],
      'no-console': 'off',
    },
  },
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [
        createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] }),
      ],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: root, zones: boundaryZones }],
    },
  },
  {
    files: ['**/test/**/*.ts', '**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    files: ['packages/shared/src/**/*.ts'],
    ignores: ['packages/shared/src/**/*.test.ts'],
    rules: restrict([
      {
        group: ['@bourse/server', '@bourse/web', '**/apps/**'],
        message: 'packages/shared imports no app.',
      },
      {
        group: ['node:*', 'fastify', 'pg', '@electric-sql/*'],
        message: 'packages/shared runs in the browser too.',
      },
    ]),
  },
  {
    files: ['apps/web/**/*.{ts,tsx}', 'apps/admin/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    // The web app and the console call the server through the route table (api.call): no path
    // of their own.
    files: ['apps/web/src/**/*.{ts,tsx}', 'apps/admin/src/**/*.{ts,tsx}'],
    ignores: ['apps/web/src/**/*.test.{ts,tsx}', 'apps/web/src/test/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'Literal[value=/^\\/(api|admin-api)\\//]',
          message: 'Call the server with api.call(<route of @bourse/shared>), not a path.',
        },
        {
          selector: 'TemplateElement[value.raw=/^\\/(api|admin-api)\\//]',
          message: 'Call the server with api.call(<route of @bourse/shared>), not a path.',
        },
      ],
    },
  },
  {
    // Web imports go one way: shared -> features -> app (features never import each other: above).
    files: ['apps/web/src/features/**/*.{ts,tsx}'],
    rules: restrict([{ regex: '(^|/)app/', message: 'Features do not import the app shell.' }]),
  },
  {
    files: WEB_LAYERS_BELOW_FEATURES.map((layer) => `apps/web/src/${layer}/**/*.{ts,tsx}`),
    rules: restrict([
      {
        regex: '(^|/)(features|app)/',
        message: 'Shared web layers import neither features nor the app shell.',
      },
    ]),
  },
  {
    // SQL only in repos: a module's other files neither run a statement nor write SQL text.
    files: ['apps/server/src/modules/**/*.ts'],
    ignores: ['apps/server/src/modules/**/*repo*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='query']",
          message: 'SQL only in repos: call a function of the module repo.ts.',
        },
        {
          selector: `Literal[value=${SQL_TEXT}]`,
          message: 'SQL only in repos: move the statement to the module repo.ts.',
        },
        {
          selector: `TemplateElement[value.raw=${SQL_TEXT}]`,
          message: 'SQL only in repos: move the statement to the module repo.ts.',
        },
      ],
    },
  },
  {
    files: ['apps/server/src/modules/**/*repo*.ts'],
    rules: restrict([
      {
        group: ['./service', './routes', '**/http/*', '**/ledger/*'],
        message: 'Repos hold SQL only.',
      },
    ]),
  },
  {
    files: ['apps/server/src/ledger/**/*.ts'],
    rules: restrict([
      {
        group: ['**/modules/**', '**/http/**'],
        message: 'The ledger depends on no domain module.',
      },
    ]),
  },
  {
    files: [
      'apps/server/src/http/**/*.ts',
      'apps/server/src/db/**/*.ts',
      'apps/server/src/lib/**/*.ts',
      'apps/server/src/auth/**/*.ts',
    ],
    rules: restrict([
      {
        group: ['**/modules/**', '**/ledger/**'],
        message: 'Infrastructure depends on no domain module.',
      },
    ]),
  },
);
