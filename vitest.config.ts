import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['server/**/*.test.ts', 'scripts/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Each file gets its own process so native handles (SQLite, sharp) never leak between suites.
    pool: 'forks',
    // The identity rule enforced: read models are frozen in every test process.
    setupFiles: ['test/setup/freeze-models.ts'],
  },
});
