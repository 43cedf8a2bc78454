// Processes starting together on a new database seed the configured locales once: each finds them
// there or writes them, none fails (on MariaDB two inserting at once deadlocked, and the one chosen to
// fail could not yet see the other's locales, so its start-up failed).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../../src/database/connect.js';
import type { Database } from '../../src/database/dialect.js';
import { syncSchema } from '../../src/database/sync.js';
import { LocaleService } from '../../src/i18n/locales.js';
import { loadModel } from '../../src/schema/load-model.js';
import { createTestDatabase, testClient, type TestDatabase } from '../support/database.js';
import { EXAMPLE_DIR } from '../support/app.js';

const I18N = {
  defaultLocale: 'en',
  locales: [
    { code: 'en', name: 'English (en)' },
    { code: 'fr', name: 'French (fr)' },
    { code: 'de', name: 'German (de)' },
  ],
};

let testDb: TestDatabase;
let databases: Database[] = [];
beforeAll(async () => {
  if (testClient() === 'sqlite') return;
  testDb = await createTestDatabase();
  const first = await connect(testDb.config);
  await syncSchema(first, loadModel(EXAMPLE_DIR));
  databases = [first, ...(await Promise.all(Array.from({ length: 5 }, () => connect(testDb.config))))];
});
afterAll(async () => {
  for (const d of databases) await d.close();
  await testDb?.drop();
});

// SQLite's connections in one process would wait on each other's thread (better-sqlite3 blocks while the
// database is busy): processes starting together there are tested in test/cli
describe.skipIf(testClient() === 'sqlite')('locales seeded by processes starting together', () => {
  it('six seeding at once on an empty table all succeed, and the locales are there once (4 rounds)', async () => {
    for (let round = 0; round < 4; round++) {
      await databases[0]!.db.deleteFrom('i18n_locale').execute();
      const results = await Promise.allSettled(databases.map((d) => new LocaleService(d).seed(I18N)));
      expect(results.filter((r) => r.status === 'rejected').map((r) => String((r as PromiseRejectedResult).reason))).toEqual([]);
      const rows = await databases[0]!.db.selectFrom('i18n_locale').select('code').orderBy('code').execute();
      expect(rows.map((r) => r.code)).toEqual(['de', 'en', 'fr']);
    }
  });
});
