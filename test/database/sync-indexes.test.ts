// Schema sync brings indexes up to date: missing ones are made, superseded ones dropped.
import { sql, type KyselyPlugin, type PluginTransformQueryArgs, type PluginTransformResultArgs, type QueryResult, type RootOperationNode, type UnknownRow } from 'kysely';
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

/** the statements a database ran, by the kind of Kysely node they came from */
class StatementKinds implements KyselyPlugin {
  readonly ran = new Map<string, number>();
  private readonly kinds = new WeakMap<object, string>();
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    this.kinds.set(args.queryId, args.node.kind);
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const kind = this.kinds.get(args.queryId) ?? 'unknown';
    this.ran.set(kind, (this.ran.get(kind) ?? 0) + 1);
    return args.result;
  }
}

/** every index but primary keys, as the database describes it: its table, name, uniqueness and columns in order */
async function indexDefinitions(d: Database): Promise<Map<string, string>> {
  const rows =
    d.dialect.name === 'mysql'
      ? await sql<{ table_name: string; name: string; def: string }>`
          select table_name, index_name as name,
            concat(non_unique, ' ', index_type, ' ', group_concat(concat(column_name, ' ', coalesce(collation, ''), ' ', coalesce(sub_part, '')) order by seq_in_index)) as def
          from information_schema.statistics where table_schema = database() and index_name <> 'PRIMARY' group by table_name, index_name`.execute(d.db)
      : d.dialect.name === 'postgres'
        ? await sql<{ table_name: string; name: string; def: string }>`
            select tablename as table_name, indexname as name, indexdef as def from pg_indexes
            where schemaname = current_schema() and indexname not like '%\_pkey'`.execute(d.db)
        : await sql<{ table_name: string; name: string; def: string }>`
            select tbl_name as table_name, name, sql as def from sqlite_master where type = 'index' and sql is not null`.execute(d.db);
  return new Map(rows.rows.map((r) => [`${r.table_name}.${r.name}`, r.def]));
}

describe('indexes of the tables a sync creates', () => {
  let fresh: TestDatabase;
  let db: Database;
  const kinds = new StatementKinds();

  beforeAll(async () => {
    fresh = await createTestDatabase();
    db = await connect(fresh.config, [kinds]);
    await syncSchema(db, model);
  });
  afterAll(async () => {
    await db?.close();
    await fresh?.drop();
  });

  it('are declared in CREATE TABLE where the dialect allows it, with no CREATE INDEX of their own', async () => {
    const made = (await indexDefinitions(db)).size;
    expect(made).toBeGreaterThan(50);
    expect(kinds.ran.get('CreateIndexNode') ?? 0).toBe(db.dialect.indexesInCreateTable ? 0 : made);
  });

  it('are the indexes CREATE INDEX makes on an existing table, and a sync adds any that are missing', async () => {
    const declared = await indexDefinitions(db);
    for (const key of declared.keys()) {
      const [table, name] = key.split('.') as [string, string];
      const drop = db.db.schema.dropIndex(name);
      await (db.dialect.dropIndexOnTable ? drop.on(table) : drop).execute();
    }
    expect((await indexDefinitions(db)).size).toBe(0);
    const created = kinds.ran.get('CreateIndexNode') ?? 0;
    const raw = kinds.ran.get('RawNode') ?? 0;
    await syncSchema(db, model);
    expect(await indexDefinitions(db)).toEqual(declared);
    // MySQL adds a table's missing indexes in one ALTER TABLE (each CREATE INDEX would read the table again)
    const tables = new Set([...declared.keys()].map((key) => key.split('.')[0]));
    if (db.dialect.indexesInCreateTable) {
      expect((kinds.ran.get('CreateIndexNode') ?? 0) - created).toBe(0);
      expect((kinds.ran.get('RawNode') ?? 0) - raw).toBeGreaterThanOrEqual(tables.size);
    } else {
      expect((kinds.ran.get('CreateIndexNode') ?? 0) - created).toBe(declared.size);
    }
    // and a further sync finds nothing to add
    const before = kinds.ran.get('CreateIndexNode') ?? 0;
    await syncSchema(db, model);
    expect(kinds.ran.get('CreateIndexNode') ?? 0).toBe(before);
  });
});
