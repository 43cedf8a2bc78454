// Link rows queued during a create reach the database when flushed: one table's before a statement
// touching it, then all the rest together (one statement on PostgreSQL).
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { connect } from '../../src/database/connect.js';
import type { Database } from '../../src/database/dialect.js';
import { DeferredLinks, insertLinks } from '../../src/documents/store/deferred-links.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';

let testDb: TestDatabase;
let database: Database;

beforeAll(async () => {
  testDb = await createTestDatabase();
  database = await connect(testDb.config);
  await sql`create table la (id integer primary key, v integer not null)`.execute(database.db);
  await sql`create table lb (id integer primary key, v integer not null)`.execute(database.db);
});
afterAll(async () => {
  await database.db.destroy();
  await testDb.drop();
});
beforeEach(async () => {
  await database.db.deleteFrom('la').execute();
  await database.db.deleteFrom('lb').execute();
});

const ids = async (table: string): Promise<number[]> => (await database.db.selectFrom(table).select('id').orderBy('id').execute()).map((r) => Number(r.id));

describe('deferred link rows', () => {
  it('rows of a new row wait for the flush; flushing one table writes only that table', async () => {
    const deferred = new DeferredLinks();
    const s = { tx: database.db, dialect: database.dialect, deferred };
    await insertLinks(
      s,
      'la',
      [
        { id: 1, v: 1 },
        { id: 2, v: 2 },
      ],
      true,
    );
    await insertLinks(s, 'lb', [{ id: 10, v: 1 }], true);
    await insertLinks(s, 'la', [{ id: 3, v: 3 }], true);
    expect(await ids('la')).toEqual([]);
    await deferred.flush(s, 'la');
    expect(await ids('la')).toEqual([1, 2, 3]);
    expect(await ids('lb')).toEqual([]);
    // a table with nothing queued costs nothing
    const before = database.statements();
    await deferred.flush(s, 'la');
    expect(database.statements()).toBe(before);
    await deferred.flush(s);
    expect(await ids('lb')).toEqual([10]);
  });

  it('links of an existing row are written at once', async () => {
    const deferred = new DeferredLinks();
    const s = { tx: database.db, dialect: database.dialect, deferred };
    await insertLinks(s, 'la', [{ id: 7, v: 7 }], false);
    expect(await ids('la')).toEqual([7]);
  });

  it('a flush of several tables is one statement on PostgreSQL, one per table elsewhere', async () => {
    const deferred = new DeferredLinks();
    const s = { tx: database.db, dialect: database.dialect, deferred };
    await insertLinks(s, 'la', [{ id: 1, v: 1 }], true);
    await insertLinks(s, 'lb', [{ id: 2, v: 2 }], true);
    const before = database.statements();
    await deferred.flush(s);
    expect(database.statements() - before).toBe(database.dialect.writesInOneStatement ? 1 : 2);
    expect([await ids('la'), await ids('lb')]).toEqual([[1], [2]]);
  });
});
