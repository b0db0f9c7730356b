// One lint setup for the whole repository, and the boundaries between modules it guards
// (docs/decisions/0103-lint-boundaries.md). Feature folders of the web app never import each other
// (bulletproof-react): `app/` composes them, `lib/` and `components/` are shared below them. The server's
// modules import only the modules their row of eslint/server-modules.js allows (decision 0176), and talk
// through what they export, ports and the bus, never through each other's tables.
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { functionSizeRule } from './eslint/function-size.js';
import { serverFaceZones, serverModuleZones } from './eslint/server-modules.js';
import { sizeExceptions } from './eslint/size-exceptions.js';
import { serverTableOwners, tableOwnerRule } from './eslint/table-owner.js';
import { webAliasesRule } from './eslint/web-aliases.js';

const root = import.meta.dirname;
const serverSrc = `${root}/apps/server/src`;

/** The house rules, one plugin for every block that turns one of them on. */
const xtalk = {
  rules: { 'table-owner': tableOwnerRule, 'function-size': functionSizeRule, 'web-aliases': webAliasesRule },
};

/** Every folder under apps/web/src/features is a feature: a new one is guarded the day it is created. */
const webFeatures = readdirSync(`${root}/apps/web/src/features`, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/** Files that exist for tests and benchmarks only; production code never imports them. */
const testOnly = ['**/*.test.{ts,tsx}', '**/testing/**'];

export default tseslint.config(
  {
    ignores: ['**/dist/**', '**/node_modules/**', 'data/**', 'e2e/artifacts/**', '.data-*/**', 'coverage/**'],
  },
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
          project: [
            'packages/protocol/tsconfig.json',
            'packages/payments/tsconfig.json',
            'packages/service-base/tsconfig.json',
            'apps/server/tsconfig.json',
            'apps/web/tsconfig.json',
          ],
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
  },
  {
    // Promises nobody awaits or catches lose their errors (an unhandled rejection ends the server). Type-aware,
    // so only on the packages' sources, where the TypeScript projects already are: it keeps `npm run lint` fast.
    files: ['apps/*/src/**/*.{ts,tsx}', 'packages/*/src/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: root } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
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
            // features sit below the app that composes them
            {
              target: './apps/web/src/features',
              from: './apps/web/src/app',
              message: 'Features do not import the app; the app composes features.',
            },
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
    // an import that leaves its folder names it from the top, `#web/lib/i18n`, never `../../../lib/i18n`
    files: ['apps/web/src/**/*.{ts,tsx}'],
    plugins: { xtalk },
    rules: { 'xtalk/web-aliases': ['error', { src: `${root}/apps/web/src`, alias: '#web' }] },
  },
  {
    // a toast goes through lib/toast.ts, whose loading is what mounts the toaster (decision 0189)
    files: ['apps/web/src/**/*.{ts,tsx}'],
    ignores: [...testOnly, 'apps/web/src/lib/toast.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'sonner', message: "Import toast from lib/toast: it mounts the app's toaster." }] },
      ],
    },
  },
  {
    files: ['apps/server/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/apps/web/**'], message: 'Server code does not import the web app.' }] },
      ],
    },
  },
  {
    // the payment service is a package the server mounts: it reaches the server only through its ports,
    // and its SQL names only its own tables (decision 0190)
    files: ['packages/payments/**/*.ts'],
    plugins: { xtalk },
    rules: {
      'xtalk/table-owner': ['error', { owners: serverTableOwners }],
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/apps/**', '@xtalk/server', '@xtalk/server/**', '@xtalk/web', '@xtalk/web/**'],
              message:
                'The payment package never imports the apps: what it needs from a server comes in through its ports (src/ports.ts).',
            },
          ],
        },
      ],
    },
  },
  {
    // what the server and the payment package share sits below both: it imports neither, nor the web app
    // (decision 0194)
    files: ['packages/service-base/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '**/apps/**',
                '@xtalk/server',
                '@xtalk/server/**',
                '@xtalk/web',
                '@xtalk/web/**',
                '@xtalk/payments',
                '@xtalk/payments/**',
              ],
              message:
                'The shared service package sits below the server and the payment package: it imports neither.',
            },
          ],
        },
      ],
    },
  },
  {
    // one idea per file, functions a reader can hold (decision 0193); tests' describe/it callbacks are
    // lists and stay unmeasured, everything inside them is measured
    files: [
      'apps/*/src/**/*.{ts,tsx}',
      'packages/*/src/**/*.ts',
      'bench/**/*.ts',
      'e2e/**/*.ts',
      'scripts/**/*.ts',
      'eslint/**/*.{js,ts}',
    ],
    plugins: { xtalk },
    rules: {
      'max-lines': ['error', { max: 350 }],
      'xtalk/function-size': ['error', { max: 100 }],
    },
  },
  // the named exceptions, each with its reason in eslint/size-exceptions.js
  ...sizeExceptions.map(({ files }) => ({
    files,
    rules: { 'max-lines': 'off', 'xtalk/function-size': 'off' },
  })),
  {
    // production code: no test helpers, no benchmark code, and each module's tables stay its own
    files: ['apps/server/src/**/*.ts'],
    ignores: [...testOnly, 'apps/server/src/store/migrations.ts'],
    plugins: { xtalk },
    rules: {
      'xtalk/table-owner': ['error', { owners: serverTableOwners }],
      // a module imports only the modules its row allows, and of those only their faces (index.ts)
      'import-x/no-restricted-paths': [
        'error',
        { zones: [...serverModuleZones(serverSrc), ...serverFaceZones(serverSrc)] },
      ],
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/apps/web/**'], message: 'Server code does not import the web app.' },
            {
              group: ['**/testing', '**/testing/**', '**/bench/**'],
              message: 'Production code never imports test helpers or benchmark code.',
            },
          ],
        },
      ],
    },
  },
  {
    // tests compose the whole app and may import any module, but only through its face or its testing/
    files: testOnly.map((pattern) => `apps/server/src/${pattern}`),
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: serverFaceZones(serverSrc, { tests: true }) }],
    },
  },
);
