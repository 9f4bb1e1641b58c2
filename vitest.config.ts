import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    reporters: ['default', './test/support/summary-reporter.ts'],
    testTimeout: 30_000,
    // Structured logs (stderr) stay quiet unless a test asks for them; child processes inherit it.
    env: { TWINLINE_LOG_LEVEL: 'silent' },
    hookTimeout: 60_000,
    pool: 'forks',
    // Two cores: more workers only add contention.
    maxWorkers: 2,
  },
});
