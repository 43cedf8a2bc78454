// An idle pooled connection that dies (server restart, terminated backend) is dropped without
// crashing the process, and said on stderr so an operator sees it. PostgreSQL's pool reports it as an
// event; SQLite has no pool, and MariaDB's pool drops a dead idle connection itself.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'kysely';
import { connect } from '../../src/database/connect.js';
import type { Database } from '../../src/database/dialect.js';
import { createTestDatabase, testClient, type TestDatabase } from '../support/database.js';

describe.skipIf(testClient() !== 'postgres')('PostgreSQL pool errors', () => {
  let testDb: TestDatabase;
  let database: Database;
  beforeAll(async () => {
    testDb = await createTestDatabase();
    database = await connect(testDb.config);
  });
  afterAll(async () => {
    await database.close();
    await testDb.drop();
  });

  it('a terminated idle connection is logged, and the next query gets a new one', async () => {
    const pid = (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(database.db)).rows[0]!.pid;
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const pg = (await import('pg')).default;
      const admin = new pg.Client({ ...testDb.config, database: 'postgres' } as import('pg').ClientConfig);
      await admin.connect();
      await admin.query('select pg_terminate_backend($1)', [pid]);
      await admin.end();
      await vi.waitFor(() => expect(logged).toHaveBeenCalled(), { timeout: 5000 });
      expect(String(logged.mock.calls[0]![0])).toMatch(/idle PostgreSQL connection failed/);
    } finally {
      logged.mockRestore();
    }
    const again = await sql<{ one: number }>`select 1 as one`.execute(database.db);
    expect(again.rows[0]!.one).toBe(1);
  });
});
