import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // two cores: more workers only add contention on the shared database servers
    maxWorkers: 2,
    reporters: ['default'],
    // every reuse of a compiled populate statement is checked against a fresh build (statement-template.ts)
    env: { FOLIO_CHECK_STATEMENT_TEMPLATES: '1' },
  },
});
