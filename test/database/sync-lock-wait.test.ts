// A process starting while another holds SQLite's write lock past the busy timeout (another process's
// schema sync on a loaded machine) waits for it instead of failing start-up with "database is locked".
import Sqlite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../../src/database/connect.js';
import type { Database } from '../../src/database/dialect.js';
import { syncSchema } from '../../src/database/sync.js';
import { loadModel } from '../../src/schema/load-model.js';
import { EXAMPLE_DIR } from '../support/app.js';
import { createTestDatabase, testClient, type TestDatabase } from '../support/database.js';

describe.skipIf(testClient() !== 'sqlite')('the schema sync and a write lock held elsewhere', () => {
  let testDb: TestDatabase;
  let database: Database;

  beforeAll(async () => {
    testDb = await createTestDatabase();
    database = await connect(testDb.config);
  });
  afterAll(async () => {
    await database?.close();
    await testDb?.drop();
  });

  it('waits past the busy timeout (5 s) for the lock, then syncs', async () => {
    const other = new Sqlite(testDb.config.filename!);
    other.pragma('journal_mode = WAL');
    other.exec('begin immediate');
    const heldMs = 6_500;
    const released = new Promise<void>((resolve) =>
      setTimeout(() => {
        other.exec('commit');
        other.close();
        resolve();
      }, heldMs),
    );
    const started = Date.now();
    const report = await syncSchema(database, loadModel(EXAMPLE_DIR));
    await released;
    expect(Date.now() - started).toBeGreaterThanOrEqual(heldMs - 50);
    expect(report.createdTables).toContain('articles');
  }, 30_000);
});
