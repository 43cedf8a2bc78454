// PostgreSQL: selects that recur are sent as named prepared statements, within a fixed number of names.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { sql } from 'kysely';
import { connect } from '../../src/database/connect.js';
import { MAX_NAMED_STATEMENTS, prepareRecurringSelects } from '../../src/database/pg-prepared.js';
import { createTestDatabase, testClient, type TestDatabase } from '../support/database.js';

const onPostgres = testClient() === 'postgres';

describe.skipIf(!onPostgres)('named prepared statements on PostgreSQL', () => {
  let testDb: TestDatabase;
  let pool: pg.Pool;
  let client: pg.PoolClient;

  /** the statements this connection has prepared, read with a text that is never repeated */
  let probe = 0;
  async function prepared(): Promise<string[]> {
    const r = await client.query(`select statement from pg_prepared_statements where name like 'folio_%' and ${++probe} > 0 order by name`, []);
    return r.rows.map((x: { statement: string }) => x.statement);
  }

  beforeAll(async () => {
    testDb = await createTestDatabase();
    const c = testDb.config;
    if (c.client !== 'postgres') throw new Error('unreachable');
    pool = new pg.Pool({ host: c.host, port: c.port, user: c.user, password: c.password, database: c.database, max: 1 });
    prepareRecurringSelects(pool);
    client = await pool.connect();
    await client.query('create table t (id integer primary key, label text)');
    await client.query("insert into t values (1, 'one'), (2, 'two'), (3, 'three')");
  });
  afterAll(async () => {
    client.release();
    await pool.end();
    await testDb.drop();
  });

  it('a select sent once stays unnamed; sent again it is prepared, and answers with each call\'s values', async () => {
    const text = 'select label from t where id = $1';
    expect((await client.query(text, [1])).rows).toEqual([{ label: 'one' }]);
    expect(await prepared()).not.toContain(text);
    expect((await client.query(text, [2])).rows).toEqual([{ label: 'two' }]);
    expect(await prepared()).toContain(text);
    expect((await client.query(text, [3])).rows).toEqual([{ label: 'three' }]);
    expect((await prepared()).filter((s) => s === text)).toHaveLength(1);
  });

  it('writes and statements without values are never named', async () => {
    const write = 'update t set label = label where id = $1';
    const plain = 'select count(*)::int as n from t';
    for (let i = 0; i < 3; i++) {
      await client.query(write, [1]);
      expect((await client.query(plain)).rows).toEqual([{ n: 3 }]);
    }
    const names = await prepared();
    expect(names).not.toContain(write);
    expect(names).not.toContain(plain);
  });

  it(`no more than ${MAX_NAMED_STATEMENTS} texts get a name; the rest still run, unnamed`, async () => {
    const extra = 20;
    for (let i = 0; i < MAX_NAMED_STATEMENTS + extra; i++) {
      const text = `select label, ${i} as n from t where id = $1`;
      for (let k = 0; k < 2; k++) expect((await client.query(text, [1])).rows).toEqual([{ label: 'one', n: i }]);
    }
    const names = await prepared();
    expect(names.length).toBe(MAX_NAMED_STATEMENTS);
    expect(names).not.toContain(`select label, ${MAX_NAMED_STATEMENTS + extra - 1} as n from t where id = $1`);
  });
});

describe.skipIf(!onPostgres)('DATABASE_PREPARED_STATEMENTS', () => {
  let testDb: TestDatabase;
  beforeAll(async () => { testDb = await createTestDatabase(); });
  afterAll(async () => { await testDb.drop(); });

  /** how many named statements one pooled connection holds after the same select ran three times */
  async function namedAfterRepeats(preparedStatements: boolean | undefined): Promise<number> {
    const database = await connect({ ...testDb.config, poolMax: 1, preparedStatements });
    try {
      for (let i = 0; i < 3; i++) await sql`select ${i}::int as n`.execute(database.db);
      const r = await sql<{ n: number }>`select count(*)::int as n from pg_prepared_statements where name like 'folio_%'`.execute(database.db);
      return r.rows[0]!.n;
    } finally {
      await database.db.destroy();
    }
  }

  it('is on by default: the database connection names recurring selects', async () => {
    expect(await namedAfterRepeats(undefined)).toBe(1);
  });

  it('false sends every statement unnamed (for poolers that cannot keep prepared statements)', async () => {
    expect(await namedAfterRepeats(false)).toBe(0);
  });
});
