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
  },
});
