// ESLint: TypeScript rules plus the import boundaries of ARCHITECTURE.md (convention 1):
// shared imports no app; server routes -> service -> repo/ledger; the ledger and the HTTP layer
// never reach into domain modules.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const restrict = (patterns) => ({
  'no-restricted-imports': ['error', { patterns }],
});

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
    files: ['apps/server/src/modules/*/routes.ts'],
    rules: restrict([
      {
        group: ['./repo', '../*/repo', '**/db/*', '**/ledger/*'],
        message: 'Routes call services; SQL and money stay below them.',
      },
    ]),
  },
  {
    files: ['apps/server/src/modules/*/repo.ts'],
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
    ],
    rules: restrict([
      {
        group: ['**/modules/**', '**/ledger/**'],
        message: 'Infrastructure depends on no domain module.',
      },
    ]),
  },
);
