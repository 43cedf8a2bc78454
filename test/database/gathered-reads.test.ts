// Loads gathered from one populate level into one statement (turn-batch.ts): each UNION part binds its
// own id list, so the parts together must stay within what a database binds (SQLite 32,766), and
// every asker gets its own rows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../../src/database/connect.js';
import type { Database } from '../../src/database/dialect.js';
import type { Model } from '../../src/schema/types.js';
import { readMediaLinks } from '../../src/query/sql/media-batch.js';
import { readLinks } from '../../src/query/sql/link-batch.js';
import type { ReadContext } from '../../src/query/sql/find.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';

let test: TestDatabase;
let database: Database;
let ctx: ReadContext;
const PARENTS = 17_000;
const ids = Array.from({ length: PARENTS }, (_, i) => i + 1);

beforeAll(async () => {
  test = await createTestDatabase();
  database = await connect(test.config);
  await database.db.schema
    .createTable('files_related_mph')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('file_id', 'integer')
    .addColumn('related_id', 'integer')
    .addColumn('related_type', 'varchar(255)')
    .addColumn('field', 'varchar(255)')
    .addColumn('ord', 'double precision')
    .execute();
  for (const table of ['a_one_lnk', 'a_two_lnk']) {
    await database.db.schema
      .createTable(table)
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('source_id', 'integer')
      .addColumn('target_document_id', 'varchar(64)')
      .addColumn('ord', 'double precision')
      .execute();
  }
  // the last parent has a file in each field and a link in each table
  await database.db
    .insertInto('files_related_mph')
    .values([
      { id: 1, file_id: 7, related_id: PARENTS, related_type: 'api::a.a', field: 'cover', ord: 1 },
      { id: 2, file_id: 8, related_id: PARENTS, related_type: 'api::a.a', field: 'gallery', ord: 1 },
    ])
    .execute();
  await database.db.insertInto('a_one_lnk').values({ id: 1, source_id: PARENTS, target_document_id: 'one', ord: 1 }).execute();
  await database.db.insertInto('a_two_lnk').values({ id: 1, source_id: PARENTS, target_document_id: 'two', ord: 1 }).execute();
  ctx = { model: {} as Model, database, defaultLocale: 'en' };
});
afterAll(async () => {
  await database.close();
  await test.drop();
});

describe('loads gathered into one statement', () => {
  it('two media attributes of 17,000 parents each (34,000 ids) are read, each asker getting its own links', async () => {
    const [cover, gallery] = await Promise.all([readMediaLinks(ctx, 'api::a.a', 'cover', ids), readMediaLinks(ctx, 'api::a.a', 'gallery', ids)]);
    expect(cover.map((r) => [Number(r['__src']), Number(r['__file'])])).toEqual([[PARENTS, 7]]);
    expect(gallery.map((r) => [Number(r['__src']), Number(r['__file'])])).toEqual([[PARENTS, 8]]);
  });

  it('two relations of 17,000 parents each are read, each asker getting its own links', async () => {
    const [one, two] = await Promise.all([readLinks(ctx, 'a_one_lnk', ids), readLinks(ctx, 'a_two_lnk', ids)]);
    expect(one.map((r) => r['__doc'])).toEqual(['one']);
    expect(two.map((r) => r['__doc'])).toEqual(['two']);
  });
});
