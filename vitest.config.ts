import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

/*
 * One Vitest run, several projects: `npm test` runs protocol, server and web (nothing running, no network);
 * `npm run test:e2e` drives real Chromium; `npm run test:services` needs a real PostgreSQL and Redis (and
 * Debian's prometheus for the alert rules' test).
 */
export default defineConfig({
  test: {
    // Vitest's default is one worker fewer than the cores: one on a two-core machine, where test files
    // spend much of their time waiting on sockets and the database. Two keep both cores busy.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // `npm run check` measures coverage (V8's own counters, no instrumentation) and prints the summary;
    // the full report lands in coverage/ for a closer look.
    coverage: {
      provider: 'v8',
      include: ['packages/*/src/**/*.ts', 'apps/server/src/**/*.ts', 'apps/web/src/**/*.{ts,tsx}'],
      exclude: ['**/*.test.{ts,tsx}', '**/testing/**', '**/*.d.ts'],
      reporter: ['text-summary', 'html'],
      reportsDirectory: 'coverage',
      // printed even when a test fails, so CI's log always shows it
      reportOnFailure: true,
    },
    projects: [
      {
        test: {
          name: 'protocol',
          include: ['packages/protocol/src/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'pglite-engine',
          include: ['packages/pglite-engine/src/**/*.test.ts'],
          environment: 'node',
          // a test here starts a database from nothing (initdb, in a child process or a thread of its own):
          // on two cores shared with other work that has taken more than 20 s
          testTimeout: 60_000,
          hookTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'payments',
          include: ['packages/payments/src/**/*.test.ts'],
          exclude: [...configDefaults.exclude, '**/*.services.test.ts'],
          environment: 'node',
          testTimeout: 20_000,
          // each file starts PGlite and a fake store or two; on two loaded cores that can pass 30 s
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'service-base',
          include: ['packages/service-base/src/**/*.test.ts'],
          environment: 'node',
          testTimeout: 20_000,
          hookTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'server',
          include: ['apps/server/src/**/*.test.ts'],
          // the tests against a real PostgreSQL and Redis are the services project's
          exclude: [...configDefaults.exclude, '**/*.services.test.ts'],
          environment: 'node',
          // the migrated database every test server starts from, made once per run
          globalSetup: ['apps/server/src/testing/global-setup.ts'],
          testTimeout: 20_000,
          hookTimeout: 30_000,
        },
      },
      'apps/web/vitest.config.ts',
      {
        test: {
          name: 'lint',
          include: ['eslint/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.e2e.ts'],
          setupFiles: ['e2e/setup.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
          // expect.poll waits for the page to reach a state; in Chromium on two loaded cores a device list
          // or a socket round trip can take seconds (CI saw the microphone list miss 1 s). Waiting longer
          // only delays a failure, it never turns one into a pass.
          expect: { poll: { timeout: 10_000 } },
        },
      },
      {
        test: {
          name: 'services',
          include: [
            'apps/server/src/**/*.services.test.ts',
            'packages/payments/src/**/*.services.test.ts',
            'scripts/chaos/*.services.test.ts',
          ],
          environment: 'node',
          // a migrated template database that each test's scratch database is copied from
          globalSetup: ['apps/server/src/testing/services-global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 30_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
