// ESLint: TypeScript rules plus the import boundaries of ARCHITECTURE.md (convention 1):
// shared imports no app; server routes -> service -> repo/ledger; the ledger and the HTTP layer
// never reach into domain modules.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

const restrict = (patterns) => ({
  'no-restricted-imports': ['error', { patterns }],
});

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
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    // Web imports go one way: shared -> features -> app; a feature never imports another one.
    files: ['apps/web/src/features/**/*.{ts,tsx}'],
    rules: restrict([
      { regex: '^\\.\\./(?!\\.)', message: 'A feature never imports another feature.' },
      { regex: '(^|/)app/', message: 'Features do not import the app shell.' },
    ]),
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
