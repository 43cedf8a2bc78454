// On PostgreSQL each of Folio's SQL texts runs as a named prepared statement, parsed once per
// connection; a bounded number of texts is named, the rest run unnamed, and the option turns it off.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { connect } from '../../src/database/connect.js';
import { StatementNames } from '../../src/database/pg-named-statements.js';
import type { Database } from '../../src/database/dialect.js';
import { createTestDatabase, testClient, type TestDatabase } from '../support/database.js';

describe('statement names', () => {
  it('one name per text, the same each time it is asked', () => {
    const names = new StatementNames(10);
    const a = names.nameOf('select 1');
    expect(a).toMatch(/^folio_/);
    expect(names.nameOf('select 1')).toBe(a);
    expect(names.nameOf('select 2')).not.toBe(a);
  });

  it('texts past the limit run unnamed; those named before keep their names', () => {
    const names = new StatementNames(2);
    const first = names.nameOf('select 1');
    names.nameOf('select 2');
    expect(names.nameOf('select 3')).toBeUndefined();
    expect(names.nameOf('select 1')).toBe(first);
  });

  it('only reads and writes of rows are named, not DDL, transaction control or a select of every column', () => {
    const names = new StatementNames(10);
    for (const text of ['select 1', ' WITH x as (select 1 as a) select a from x', 'insert into t values (1)', 'update t set a = 1', 'delete from t'])
      expect(names.nameOf(text), text).toBeDefined();
    for (const text of ['create table t (a int)', 'begin', 'commit', 'alter table t add b int', 'vacuum', 'select * from "up_users"', 'select "t".* from t'])
      expect(names.nameOf(text), text).toBeUndefined();
  });
});

describe.runIf(testClient() === 'postgres')('PostgreSQL prepared statements', () => {
  let target: TestDatabase;
  beforeAll(async () => {
    target = await createTestDatabase();
  });
  afterAll(async () => {
    await target.drop();
  });

  async function preparedOn(database: Database): Promise<Array<{ name: string; statement: string }>> {
    // one pooled connection: the statements below and this view are on the same backend
    const { rows } = await sql<{ name: string; statement: string }>`select name, statement from pg_prepared_statements`.execute(database.db);
    return rows;
  }

  it('a read run twice is prepared once on the connection and answers the same', async () => {
    const database = await connect({ ...target.config, poolMax: 1 });
    try {
      const read = database.db.selectFrom(sql`generate_series(1, 3)`.as('g')).select(sql<number>`g`.as('n'));
      const first = await read.execute();
      const second = await read.execute();
      expect(second).toEqual(first);
      const prepared = await preparedOn(database);
      const mine = prepared.filter((p) => p.statement === read.compile().sql);
      expect(mine).toHaveLength(1);
      expect(mine[0]!.name).toMatch(/^folio_/);
    } finally {
      await database.close();
    }
  });

  it('with preparedStatements: false nothing is prepared', async () => {
    const database = await connect({ ...target.config, poolMax: 1, preparedStatements: false });
    try {
      await database.db
        .selectFrom(sql`generate_series(1, 3)`.as('g'))
        .select(sql<number>`g`.as('n'))
        .execute();
      expect(await preparedOn(database)).toEqual([]);
    } finally {
      await database.close();
    }
  });
});
