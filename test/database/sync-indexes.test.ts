// Schema sync brings indexes up to date: missing ones are made, superseded ones dropped.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../../src/database/connect.js';
import type { Database } from '../../src/database/dialect.js';
import { syncSchema } from '../../src/database/sync.js';
import { loadModel } from '../../src/schema/load-model.js';
import { EXAMPLE_DIR } from '../support/app.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';

let testDb: TestDatabase;
let database: Database;
const model = loadModel(EXAMPLE_DIR);

async function indexes(): Promise<Set<string>> {
  const r = await database.dialect.indexNames.execute(database.db);
  return new Set(r.rows.map((x) => x.name));
}

beforeAll(async () => {
  testDb = await createTestDatabase();
  database = await connect(testDb.config);
  await syncSchema(database, model);
});
afterAll(async () => {
  await database.db.destroy();
  await testDb.drop();
});

describe('link table indexes', () => {
  it('each end of a relation link has an index that also holds the other end', async () => {
    const have = await indexes();
    expect(have.has('articles_categories_lnk_src_ix')).toBe(true);
    expect(have.has('articles_categories_lnk_tgt_cov')).toBe(true);
    expect(have.has('articles_categories_lnk_src_idx')).toBe(false);
    expect(have.has('articles_categories_lnk_src_cov')).toBe(false);
  });

  it('a database made by an earlier version gets the new indexes and loses the ones they replace', async () => {
    const db = database.db;
    const dropNew = (name: string) => db.schema.dropIndex(name);
    for (const name of ['articles_categories_lnk_src_ix', 'articles_categories_lnk_tgt_cov']) {
      const drop = dropNew(name);
      await (database.dialect.dropIndexOnTable ? drop.on('articles_categories_lnk') : drop).execute();
    }
    await db.schema.createIndex('articles_categories_lnk_src_idx').on('articles_categories_lnk').columns(['source_id', 'ord']).execute();
    await db.schema.createIndex('articles_categories_lnk_tgt_idx').on('articles_categories_lnk').columns(['target_document_id', 'inv_ord']).execute();
    // and one made by the version before this one, which lacked the link's id
    await db.schema.createIndex('articles_categories_lnk_src_cov').on('articles_categories_lnk').columns(['source_id', 'ord', 'target_document_id']).execute();
    await syncSchema(database, model);
    const have = await indexes();
    expect(['articles_categories_lnk_src_ix', 'articles_categories_lnk_tgt_cov'].every((n) => have.has(n))).toBe(true);
    const replaced = ['articles_categories_lnk_src_idx', 'articles_categories_lnk_src_cov', 'articles_categories_lnk_tgt_idx'];
    expect(replaced.filter((n) => have.has(n))).toEqual([]);
  });
});
