import { defineConfig } from 'vitest/config';

/**
 * Three projects: `unit` (the modules' own tests beside the code, and the
 * architecture rules: no server process, no host, no browser), `e2e`
 * (real HTTP, real processes, the hosts, the output validators and the
 * scripts), and `postgres` (the end-to-end suites below again, with the data
 * in a real Postgres: `test/helpers/postgres-cluster.ts`). `npm test` runs
 * all three; `npm run test:unit`, `npm run test:e2e` and
 * `npm run test:postgres` run one each.
 */

/** The end-to-end suites that run on both stores (issue 38). */
const POSTGRES_SUITES = [
  'test/e2e/publishing-rules.test.ts',
  'test/e2e/lifecycle.test.ts',
  'test/e2e/public-api.test.ts',
  'test/e2e/read-your-writes.test.ts',
  'test/e2e/static-build.test.ts',
  'test/e2e/fuzz-corpus.test.ts',
  'test/e2e/hostile-input.test.ts',
  'test/e2e/dashboard-lists.test.ts',
  'test/e2e/restart.test.ts',
];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Each file gets its own process so native handles (SQLite, sharp) never leak between suites.
    pool: 'forks',
    // The identity rule enforced: read models are frozen in every test process.
    setupFiles: ['test/setup/freeze-models.ts', 'test/setup/postgres-store.ts'],
    projects: [
      { extends: true, test: { name: 'unit', include: ['server/**/*.test.ts', 'test/architecture/**/*.test.ts'] } },
      { extends: true, test: { name: 'e2e', include: ['test/e2e/**/*.test.ts', 'test/hosts/**/*.test.ts', 'test/validate/**/*.test.ts', 'scripts/**/*.test.ts'] } },
      // The same end-to-end suites with the data in Postgres (issue 38): a cluster per file, a database per service.
      {
        extends: true,
        test: {
          name: 'postgres',
          include: POSTGRES_SUITES,
          env: { PRESSROOM_TEST_STORE: 'postgres' },
        },
      },
    ],
  },
});
