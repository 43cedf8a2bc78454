// Populate statements compiled once per shape: later runs with other values read what a fresh build would.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../../src/database/connect.js';
import type { Database } from '../../src/database/dialect.js';
import type { Model } from '../../src/schema/types.js';
import { runTemplate } from '../../src/query/sql/statement-template.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';

let test: TestDatabase;
let database: Database;
const model = {} as Model;

beforeAll(async () => {
  test = await createTestDatabase();
  database = await connect(test.config);
  await database.db.schema
    .createTable('tpl')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('kind', 'varchar(20)')
    .execute();
  await database.db
    .insertInto('tpl')
    .values([1, 2, 3, 4, 5].map((id) => ({ id, kind: id % 2 ? 'odd' : 'even' })))
    .execute();
});
afterAll(async () => {
  await database.close();
  await test.drop();
});

const byIds = (kind: string, ids: readonly number[]) =>
  runTemplate(model, database, `tpl\u0000${kind}`, [ids] as const, (list) =>
    database.db
      .selectFrom('tpl')
      .select(['id'])
      .where('kind', '=', kind)
      .where(sql<boolean>`id in (${sql.join(list)})`)
      .orderBy('id'),
  );

describe('statement templates', () => {
  it('a shape run again with other ids, and with another number of them, reads those rows', async () => {
    expect(await byIds('odd', [1, 2, 3])).toEqual([{ id: 1 }, { id: 3 }]);
    expect(await byIds('odd', [3, 4, 5])).toEqual([{ id: 3 }, { id: 5 }]);
    expect(await byIds('odd', [5])).toEqual([{ id: 5 }]);
    expect(await byIds('even', [1, 2, 3, 4])).toEqual([{ id: 2 }, { id: 4 }]);
  });

  it("a list asked for with the dialect's oneOf, run again with other ids, reads those rows (PostgreSQL binds the list as one array)", async () => {
    const oneOf = (kind: string, ids: readonly number[]) =>
      runTemplate(model, database, `tpl one of\u0000${kind}`, [ids] as const, (list) =>
        database.db
          .selectFrom('tpl')
          .select(['id'])
          .where('kind', '=', kind)
          .where(database.dialect.oneOf(sql.ref('id'), list, 'integer'))
          .orderBy('id'),
      );
    expect(await oneOf('odd', [1, 2, 3])).toEqual([{ id: 1 }, { id: 3 }]);
    expect(await oneOf('odd', [3, 4, 5])).toEqual([{ id: 3 }, { id: 5 }]);
    expect(await oneOf('odd', [5])).toEqual([{ id: 5 }]);
    expect(await oneOf('odd', [4])).toEqual([]);
    expect(await oneOf('even', [1, 2, 3, 4])).toEqual([{ id: 2 }, { id: 4 }]);
    const ids = Array.from({ length: 100 }, (_, i) => i + 1);
    const compiled = database.db
      .selectFrom('tpl')
      .select(['id'])
      .where(database.dialect.oneOf(sql.ref('id'), ids, 'integer'))
      .compile();
    expect(compiled.parameters.length).toBe(database.dialect.name === 'postgres' ? 1 : 100);
  });

  it('a bound value the key does not name fails loudly in the test suite instead of reading with a stale value', async () => {
    expect(process.env['FOLIO_CHECK_STATEMENT_TEMPLATES']).toBe('1');
    const unkeyed = (kind: string) =>
      runTemplate(model, database, 'tpl unkeyed', [[1, 2]] as const, (list) => database.db.selectFrom('tpl').select(['id']).where('kind', '=', kind).where('id', 'in', list));
    expect(await unkeyed('odd')).toEqual([{ id: 1 }]);
    await expect(unkeyed('even')).rejects.toThrow('statement template "tpl unkeyed" no longer matches its build: the key misses an input');
  });
});
