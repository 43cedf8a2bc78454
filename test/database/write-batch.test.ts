// Independent writes go out together: one statement on PostgreSQL, in order elsewhere; every write
// takes effect either way, also when their parameters outgrow what one statement may bind.
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { connect } from '../../src/database/connect.js';
import type { Database } from '../../src/database/dialect.js';
import { runWrites } from '../../src/documents/store/write-batch.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';

let testDb: TestDatabase;
let database: Database;

beforeAll(async () => {
  testDb = await createTestDatabase();
  database = await connect(testDb.config);
  await sql`create table wa (id integer primary key, v integer not null)`.execute(database.db);
  await sql`create table wb (id integer primary key, v integer not null)`.execute(database.db);
});
afterAll(async () => {
  await database.db.destroy();
  await testDb.drop();
});
beforeEach(async () => {
  await database.db.deleteFrom('wa').execute();
  await database.db.deleteFrom('wb').execute();
  await database.db
    .insertInto('wa')
    .values([1, 2, 3].map((id) => ({ id, v: id })))
    .execute();
});

const store = () => ({ tx: database.db, dialect: database.dialect });
const ids = async (table: string): Promise<number[]> => (await database.db.selectFrom(table).select('id').orderBy('id').execute()).map((r) => Number(r.id));

describe('batched writes', () => {
  it('every write of a batch takes effect: deletes, inserts and an insert copying rows', async () => {
    const db = database.db;
    const before = database.statements();
    await runWrites(store(), [
      db.deleteFrom('wa').where('id', '=', 1),
      db.insertInto('wb').values({ id: 10, v: 0 }),
      db
        .insertInto('wb')
        .columns(['id', 'v'])
        .expression(
          db
            .selectFrom('wa')
            .select([sql<number>`id + 100`.as('id'), 'v'])
            .where('id', '>=', 2),
        ),
      db.updateTable('wa').set({ v: 9 }).where('id', '=', 3),
    ]);
    // PostgreSQL sends them as one statement; the others one by one
    expect(database.statements() - before).toBe(database.dialect.writesInOneStatement ? 1 : 4);
    expect(await ids('wa')).toEqual([2, 3]);
    expect(await ids('wb')).toEqual([10, 102, 103]);
    expect(Number((await db.selectFrom('wa').select('v').where('id', '=', 3).executeTakeFirstOrThrow()).v)).toBe(9);
  });

  it('a batch binding more parameters than one statement may is split, and all of it lands', async () => {
    const db = database.db;
    const many = Array.from({ length: 12_000 }, (_, i) => i + 1000);
    const before = database.statements();
    // three writes of 12,000 parameters each: more than 30,000 together
    await runWrites(store(), [
      db.deleteFrom('wa').where('id', 'in', many),
      db.deleteFrom('wb').where('id', 'in', many),
      db.deleteFrom('wa').where('id', 'in', [1, ...many.slice(1)]),
    ]);
    expect(database.statements() - before).toBe(database.dialect.writesInOneStatement ? 2 : 3);
    expect(await ids('wa')).toEqual([2, 3]);
  });

  it('a batch of many small writes goes in statements of 200 writes at most (PostgreSQL binds one of 10,000 in seconds), and all of it lands', async () => {
    const db = database.db;
    const before = database.statements();
    await runWrites(
      store(),
      Array.from({ length: 250 }, (_, i) => db.insertInto('wb').values({ id: 1000 + i, v: i })),
    );
    expect(database.statements() - before).toBe(database.dialect.writesInOneStatement ? 2 : 250);
    expect((await ids('wb')).length).toBe(250);
  });

  it('a failing write in a batch leaves nothing of the batch inside a rolled-back transaction', async () => {
    await expect(
      database.db.transaction().execute(async (tx) => {
        await runWrites({ tx, dialect: database.dialect }, [
          tx.deleteFrom('wa').where('id', '=', 2),
          tx.insertInto('wa').values({ id: 3, v: 3 }), // duplicate primary key
        ]);
      }),
    ).rejects.toThrow();
    expect(await ids('wa')).toEqual([1, 2, 3]);
  });

  it('an empty batch sends nothing', async () => {
    const before = database.statements();
    await runWrites(store(), []);
    expect(database.statements()).toBe(before);
  });
});
