// Schema sync never drops: what the schema files no longer have stays in the database, and the report
// start-up prints from names it — a removed attribute's column, and the tables of a removed type, its
// relations and its components list.
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connect } from '../../src/database/connect.js';
import type { Database } from '../../src/database/dialect.js';
import { syncSchema } from '../../src/database/sync.js';
import { loadModel } from '../../src/schema/load-model.js';
import { EXAMPLE_DIR } from '../support/app.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';

let testDb: TestDatabase;
let database: Database;
let withGadgets: string;

beforeAll(async () => {
  // the example app with one more type: a relation to articles and a component of its own
  withGadgets = mkdtempSync(join(tmpdir(), 'folio-kept-'));
  cpSync(EXAMPLE_DIR, withGadgets, { recursive: true });
  const dir = join(withGadgets, 'src', 'api', 'gadget', 'content-types', 'gadget');
  mkdirSync(dir, { recursive: true });
  const schema = {
    kind: 'collectionType',
    collectionName: 'gadgets',
    info: { singularName: 'gadget', pluralName: 'gadgets', displayName: 'Gadget' },
    options: { draftAndPublish: false },
    attributes: {
      name: { type: 'string' },
      article: { type: 'relation', relation: 'oneToOne', target: 'api::article.article' },
      seo: { type: 'component', component: 'shared.seo', repeatable: false },
    },
  };
  writeFileSync(join(dir, 'schema.json'), JSON.stringify(schema));
  testDb = await createTestDatabase();
  database = await connect(testDb.config);
});
afterAll(async () => {
  await database?.db.destroy();
  await testDb?.drop();
  rmSync(withGadgets, { recursive: true, force: true });
});

it("a type removed from the schema files keeps its tables, named in the report with a removed attribute's column", async () => {
  const first = await syncSchema(database, loadModel(withGadgets));
  expect(first.orphanTables).toEqual([]);
  expect(first.createdTables).toEqual(expect.arrayContaining(['gadgets', 'gadgets_article_lnk', 'gadgets_cmps']));
  // a column an earlier schema had
  await database.db.schema.alterTable('articles').addColumn('legacy_rank', 'integer').execute();
  await database.db
    .insertInto('gadgets')
    .values({ document_id: 'g1', name: 'kept', created_at: sql`current_timestamp`, updated_at: sql`current_timestamp` })
    .execute();

  const second = await syncSchema(database, loadModel(EXAMPLE_DIR));
  expect(second.orphanTables.sort()).toEqual(['gadgets', 'gadgets_article_lnk', 'gadgets_cmps']);
  expect(second.orphanColumns).toEqual(['articles.legacy_rank']);
  // nothing was dropped
  const kept = await database.db.selectFrom('gadgets').select('name').execute();
  expect(kept).toEqual([{ name: 'kept' }]);
});
