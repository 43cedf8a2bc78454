// The next position on a link list comes from the largest one stored for each key, on every dialect.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../../src/database/connect.js';
import type { Database } from '../../src/database/dialect.js';
import { maxPerKey } from '../../src/documents/store/rows.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';

let testDb: TestDatabase;
let database: Database;

beforeAll(async () => {
  testDb = await createTestDatabase();
  database = await connect(testDb.config);
  await sql`create table lnk (id integer primary key, doc varchar(40) not null, src integer not null, ord integer not null)`.execute(database.db);
  await sql`create index lnk_doc on lnk (doc, ord)`.execute(database.db);
  const rows = [
    ['a', 1, 1],
    ['a', 2, 7],
    ['a', 3, 3],
    ['b', 1, 2],
    ['c', 4, 0],
  ].map(([doc, src, ord], i) => ({ id: i + 1, doc, src, ord }));
  await database.db.insertInto('lnk').values(rows).execute();
});
afterAll(async () => {
  await database.db.destroy();
  await testDb.drop();
});

describe('largest position per key', () => {
  const store = () => ({ tx: database.db, dialect: database.dialect });

  it('gives each key its own maximum, and 0 for a key without rows', async () => {
    const got = await maxPerKey(store(), 'lnk', 'doc', 'ord', ['a', 'b', 'zz', 'c']);
    expect([...got].sort()).toEqual([
      ['a', 7],
      ['b', 2],
      ['c', 0],
      ['zz', 0],
    ]);
  });

  it('answers a key given twice once', async () => {
    const got = await maxPerKey(store(), 'lnk', 'doc', 'ord', ['b', 'b']);
    expect([...got]).toEqual([['b', 2]]);
  });

  it('works on numeric keys', async () => {
    const got = await maxPerKey(store(), 'lnk', 'src', 'ord', [1, 2, 4, 9]);
    expect([...got].sort()).toEqual([
      [1, 2],
      [2, 7],
      [4, 0],
      [9, 0],
    ]);
  });

  it('answers more keys than one compound SELECT may hold', async () => {
    const keys = Array.from({ length: 1200 }, (_, i) => `k${i}`).concat(['a', 'b']);
    const got = await maxPerKey(store(), 'lnk', 'doc', 'ord', keys);
    expect(got.size).toBe(1202);
    expect([got.get('a'), got.get('b'), got.get('k0'), got.get('k1199')]).toEqual([7, 2, 0, 0]);
  });

  it('reads any number of keys in one statement on SQLite and PostgreSQL', async () => {
    // PostgreSQL plans each branch of a union on its own: 10,000 keys as unions of 200 took seconds to plan,
    // and SQLite most of a second of its event loop to build and prepare them
    if (database.dialect.name === 'mysql') return;
    const keys = Array.from({ length: 5000 }, (_, i) => i).concat([1, 2, 4]);
    const before = database.statements();
    const got = await maxPerKey(store(), 'lnk', 'src', 'ord', keys);
    expect(database.statements() - before).toBe(1);
    expect(got.size).toBe(5000);
    expect([got.get(1), got.get(2), got.get(3), got.get(4), got.get(4999)]).toEqual([2, 7, 3, 0, 0]);
  });

  it('runs no statement for no keys', async () => {
    const before = database.statements();
    expect((await maxPerKey(store(), 'lnk', 'doc', 'ord', [])).size).toBe(0);
    expect(database.statements()).toBe(before);
  });
});
