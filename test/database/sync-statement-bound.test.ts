// The schema sync lifts the configured statement bound on its connection only: once it is done the
// connection goes back to the pool with the bound requests run under (PostgreSQL; the other dialects'
// pools carry no bound to lift).
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../../src/database/connect.js';
import type { Database } from '../../src/database/dialect.js';
import { syncSchema } from '../../src/database/sync.js';
import { loadModel } from '../../src/schema/load-model.js';
import { EXAMPLE_DIR } from '../support/app.js';
import { createTestDatabase, testClient, type TestDatabase } from '../support/database.js';

describe.skipIf(testClient() !== 'postgres')('the schema sync and the statement bound', () => {
  let testDb: TestDatabase;
  let database: Database;

  beforeAll(async () => {
    testDb = await createTestDatabase();
    // one pooled connection: the one the sync ran on is the one asked afterwards
    database = await connect({ ...testDb.config, statementTimeout: 250, poolMax: 1 });
  });
  afterAll(async () => {
    await database?.close();
    await testDb?.drop();
  });

  it('the connection the sync ran on serves requests with the bound again', async () => {
    await syncSchema(database, loadModel(EXAMPLE_DIR));
    const r = await sql<{ statement_timeout: string }>`show statement_timeout`.execute(database.db);
    expect(r.rows[0]!.statement_timeout).toBe('250ms');
  });
});
