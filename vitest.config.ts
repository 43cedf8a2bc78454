import { configDefaults, defineConfig } from 'vitest/config';

// Files that measure the test process itself (its heap after a collection, console output it spies
// on): each gets a process of its own, as every file did before.
const OWN_PROCESS = ['test/http/response-cache-memory.test.ts', 'test/upload/large.test.ts', 'test/database/postgres-connections.test.ts', 'test/cli/idle-memory.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // two cores: more workers only add contention on the shared database servers
    maxWorkers: 2,
    reporters: ['default'],
    // every reuse of a compiled populate statement is checked against a fresh build (statement-template.ts)
    env: { FOLIO_CHECK_STATEMENT_TEMPLATES: '1' },
    projects: [
      {
        extends: true,
        // Every file still gets its own database and apps (test/support), and restores what it changes
        // in process.env; sharing the worker process only spares loading the whole source tree again
        // for each of the ~120 files (that import phase cost about as much as the tests themselves on SQLite).
        test: { name: 'shared', include: ['test/**/*.test.ts'], exclude: [...configDefaults.exclude, ...OWN_PROCESS], isolate: false },
      },
      { extends: true, test: { name: 'own-process', include: OWN_PROCESS, isolate: true } },
    ],
  },
});
