// One lint setup for the whole repository. Feature folders of the web app never import each other
// (bulletproof-react): `app/` composes them, `lib/` and `components/` are shared below them.
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const webFeatures = [
  'auth',
  'room',
  'chat',
  'voice',
  'credits',
  'history',
  'settings',
  'invite',
  'transcript',
];

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'data/**', 'e2e/artifacts/**', '.data-*/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { 'import-x': importX },
    languageOptions: { globals: { ...globals.node } },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
    settings: {
      // without this import-x treats .ts files as unparseable and silently follows no import
      'import-x/extensions': ['.ts', '.tsx', '.js', '.jsx'],
      'import-x/ignore': ['node_modules'],
      // resolves `./x.js` to `./x.ts` and the workspace packages, so cycles are really followed
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: ['packages/protocol/tsconfig.json', 'apps/server/tsconfig.json', 'apps/web/tsconfig.json'],
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            // features never import each other
            ...webFeatures.map((feature) => ({
              target: `./apps/web/src/features/${feature}`,
              from: './apps/web/src/features',
              except: [`./${feature}`],
              message: 'Features do not import each other; compose them in src/app.',
            })),
            // shared code never imports features or the app
            {
              target: ['./apps/web/src/lib', './apps/web/src/components'],
              from: ['./apps/web/src/features', './apps/web/src/app'],
              message: 'Shared code sits below features and app.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/server/**/*.ts'],
    rules: {
      // the server's modules talk through services and the bus, not each other's tables
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/apps/web/**'], message: 'Server code does not import the web app.' }] },
      ],
    },
  },
);
