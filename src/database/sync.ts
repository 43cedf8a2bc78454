// Brings the database up to the model: creates missing tables, columns and indexes.
// Never drops anything: a column or table the model no longer has is kept and reported.
import { VERSIONS_TABLE, VOLATILE_TABLES } from './table-versions.js';
import type { VersionedTable } from './table-buckets.js';
import { sql, type ColumnDataType, type RawBuilder } from 'kysely';
import type { Database, Dialect } from './dialect.js';
import { SYSTEM_TABLES, modelTables, type ColumnDef, type TableDef } from './tables.js';
import type { Model } from '../schema/types.js';

export interface SyncReport {
  createdTables: string[];
  /** `old → new`: tables and columns an earlier version named otherwise, renamed to Strapi 5's names */
  renamed: string[];
  /**
   * `old → new`: tables found under both their name and an earlier one; the earlier is kept as it is
   * (a process of an earlier version, still running, may be writing to it)
   */
  earlierKept: string[];
  addedColumns: string[];
  /** columns present in the database that the model no longer has (kept, not dropped) */
  orphanColumns: string[];
  /**
   * tables of a type, a relation or a components list the model no longer has (kept, not dropped); a
   * component's own table has no columns of Folio's to know it by, and is not listed
   */
  orphanTables: string[];
  /** the tables whose counters are kept (dialects with version triggers) */
  tableVersions?: readonly VersionedTable[];
}

function columnType(d: Dialect, c: ColumnDef): ColumnDataType | RawBuilder<unknown> {
  switch (c.type) {
    case 'id':
      return d.idType === 'serial' ? 'serial' : 'integer';
    case 'ref':
      return 'integer';
    case 'ord':
      return 'double precision';
    case 'docid':
      return sql.raw('varchar(64)');
    case 'short':
      return sql.raw('varchar(255)');
    default:
      return d.columnType(c.type);
  }
}

/** `INDEX name (cols)`, as CREATE INDEX would make it: a clause of CREATE TABLE or ALTER TABLE … ADD (Dialect.indexesInCreateTable) */
function indexClause(idx: TableDef['indexes'][number]): RawBuilder<unknown> {
  return sql`${sql.raw(idx.unique ? 'unique index' : 'index')} ${sql.id(idx.name)} (${sql.join(idx.columns.map((c) => sql.id(c)))})`;
}

function indexClauses(t: TableDef): RawBuilder<unknown> {
  return sql`, ${sql.join(t.indexes.map(indexClause))}`;
}

async function createTable(database: Database, t: TableDef): Promise<void> {
  const { db, dialect } = database;
  const inline = dialect.indexesInCreateTable && t.indexes.length > 0;
  const last = t.columns.at(-1);
  let q = db.schema.createTable(t.name).ifNotExists();
  for (const c of t.columns) {
    q = q.addColumn(c.name, columnType(dialect, c), (col) => {
      let b = col;
      if (c.type === 'id') {
        b = b.primaryKey();
        if (dialect.autoIncrement) b = b.autoIncrement();
      }
      if (c.notNull) b = b.notNull();
      // the grammar takes index clauses after the columns; Kysely's builder has none, so they follow the last column's definition
      if (inline && c === last) b = b.modifyEnd(indexClauses(t));
      return b;
    });
  }
  if (dialect.tableSuffix) q = q.modifyEnd(sql.raw(dialect.tableSuffix));
  await q.execute();
}

/** each index's name and the tables holding one of that name (MySQL names indexes per table) */
type ExistingIndexes = ReadonlyMap<string, ReadonlySet<string>>;

/**
 * Creates `t`'s missing indexes, then drops those they replace. A replaced name is dropped only from
 * `t` itself and only when no wanted table declares it: an earlier name of `t`'s indexes can be the
 * current name of another table's (a type without collectionName, table `post`, earlier `posts`, beside
 * a type whose collectionName is `posts`).
 */
async function createIndexes(database: Database, t: TableDef, existing: ExistingIndexes, declared: ReadonlySet<string>): Promise<void> {
  const onThisTable = (name: string): boolean => existing.get(name)?.has(t.name) === true;
  const missing = t.indexes.filter((idx) => !onThisTable(idx.name));
  // on MySQL each CREATE INDEX reads the whole table; one ALTER TABLE adding them all reads it once
  if (database.dialect.indexesInCreateTable) {
    if (missing.length > 0) await sql`alter table ${sql.table(t.name)} ${sql.join(missing.map((idx) => sql`add ${indexClause(idx)}`))}`.execute(database.db);
  } else {
    for (const idx of missing) {
      let q = database.db.schema
        .createIndex(idx.name)
        .on(t.name)
        .columns([...idx.columns]);
      if (idx.unique) q = q.unique();
      await q.execute();
    }
  }
  for (const idx of t.indexes) {
    for (const old of idx.replaces ?? []) {
      if (!onThisTable(old) || declared.has(old)) continue;
      const drop = database.db.schema.dropIndex(old);
      await (database.dialect.dropIndexOnTable ? drop.on(t.name) : drop).execute();
    }
  }
}

async function existingIndexes(database: Database): Promise<ExistingIndexes> {
  const rows = await database.dialect.indexNames.execute(database.db);
  const out = new Map<string, Set<string>>();
  for (const { name, table } of rows.rows) {
    const tables = out.get(name) ?? new Set<string>();
    tables.add(table);
    out.set(name, tables);
  }
  return out;
}

type Conn = Database['db'];

/**
 * `work` on `conn` with the statement bound lifted (Dialect.statementBound). A restore that fails
 * fails the sync, and with it the start-up or command that owns the pool, so a connection without
 * its bound never serves a request.
 */
async function unbounded<T>(database: Database, conn: Conn, work: () => Promise<T>): Promise<T> {
  const bound = database.dialect.statementBound;
  if (bound === null) return work();
  await bound.lift.execute(conn);
  let value: T;
  try {
    value = await work();
  } catch (e) {
    await bound.restore.execute(conn).catch(() => {});
    throw e;
  }
  await bound.restore.execute(conn);
  return value;
}

/** how long a sync waits for another process's: MySQL's GET_LOCK is given as much */
const SYNC_LOCK_WAIT_MS = 600_000;

/**
 * The schema lock, waited for as long as another process's sync may take. SQLite's `begin immediate`
 * gives up at the connection's busy timeout (5 s) — processes starting together on a loaded machine
 * failed start-up with "database is locked" — so a transient refusal is asked again until the wait ends.
 */
async function takeLock(database: Database, conn: Conn, take: RawBuilder<unknown>): Promise<{ rows: unknown[] }> {
  const until = Date.now() + SYNC_LOCK_WAIT_MS;
  for (;;) {
    try {
      return await take.execute(conn);
    } catch (e) {
      if (!database.dialect.isTransient(e) || Date.now() >= until) throw e;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/**
 * Processes that start together (replicas of a deploy, `folio start --workers`) sync one at a time:
 * each takes a lock on the whole database (dialect.schemaLock) on one connection and reads the
 * schema only once it holds it, so the second finds the first's tables instead of creating them
 * again (on PostgreSQL two CREATE TABLEs of one name collide in the catalog even with IF NOT EXISTS).
 * The wait for the lock and the sync itself run without the configured statement bound.
 */
export async function syncSchema(database: Database, model: Model): Promise<SyncReport> {
  const { take, release } = database.dialect.schemaLock;
  return database.db.connection().execute(async (conn) => {
    const report = await unbounded(database, conn, async () => {
      const got = (await takeLock(database, conn, take)).rows[0] as { locked?: unknown } | undefined;
      if (got?.locked !== undefined && Number(got.locked) !== 1) throw new Error('Timed out waiting for another process to finish the schema sync');
      let synced: SyncReport;
      try {
        synced = await syncUnlocked({ ...database, db: conn }, model);
      } catch (e) {
        // the sync's own error is the one worth seeing (SQLite may have ended the transaction already)
        await release.execute(conn).catch(() => {});
        throw e;
      }
      await release.execute(conn);
      return synced;
    });
    if (report.tableVersions) database.startTableVersions(report.tableVersions);
    return report;
  });
}

/**
 * A counter row for every table, and the dialect's triggers that bump them; the
 * volatile tables get neither (table-versions.ts). False when the dialect keeps no counters.
 */
async function seedTableVersions(database: Database, tables: readonly TableDef[]): Promise<VersionedTable[] | undefined> {
  const triggers = database.dialect.versionTriggers;
  if (triggers === null) return undefined;
  const versioned = tables.filter((t) => !VOLATILE_TABLES.has(t.name)).map((t) => ({ name: t.name, partition: t.partition ?? null }));
  const rows = versioned.map((t) => ({ table_name: t.name, version: 0 }));
  const insert = database.db.insertInto(VERSIONS_TABLE).values(rows);
  await (database.dialect.insertIgnore === 'ignore' ? insert.ignore() : insert.onConflict((oc) => oc.column('table_name').doNothing())).execute();
  await triggers(database.db, versioned);
  return versioned;
}

/** the columns of a type's table, a relation's link table or a components table, as Folio makes them */
const FOLIO_SHAPES: readonly (readonly string[])[] = [
  ['document_id', 'published_at', 'created_at', 'updated_at'],
  ['source_id', 'target_document_id', 'ord', 'inv_ord'],
  ['entity_id', 'cmp_id', 'component_type', 'field', 'ord'],
];

function madeByFolio(columns: readonly string[]): boolean {
  const have = new Set(columns);
  return FOLIO_SHAPES.some((shape) => shape.every((c) => have.has(c)));
}

async function syncUnlocked(database: Database, model: Model): Promise<SyncReport> {
  const report: SyncReport = { createdTables: [], renamed: [], earlierKept: [], addedColumns: [], orphanColumns: [], orphanTables: [] };
  const wanted = [...SYSTEM_TABLES, ...modelTables(model)];
  const tables = await database.db.introspection.getTables();
  const byName = new Map(tables.map((t) => [t.name, t]));
  // a name some table has now is never taken from it as another's earlier name
  const wantedNames = new Set(wanted.map((t) => t.name));
  for (const t of wanted) {
    const earlierNames = t.formerly?.filter((n) => byName.has(n) && !wantedNames.has(n)) ?? [];
    if (byName.has(t.name)) for (const n of earlierNames) report.earlierKept.push(`${n} → ${t.name}`);
    const earlier = byName.has(t.name) ? undefined : earlierNames[0];
    if (earlier !== undefined) {
      await database.db.schema.alterTable(earlier).renameTo(t.name).execute();
      byName.set(t.name, byName.get(earlier)!);
      report.renamed.push(`${earlier} → ${t.name}`);
    }
    const have = byName.get(t.name);
    if (!have) {
      await createTable(database, t);
      report.createdTables.push(t.name);
      continue;
    }
    const haveCols = new Set(have.columns.map((c) => c.name));
    const wantCols = new Set(t.columns.map((c) => c.name));
    for (const c of t.columns) {
      if (haveCols.has(c.name)) continue;
      const was = c.formerly?.find((n) => haveCols.has(n) && !wantCols.has(n));
      if (was !== undefined) {
        await database.db.schema.alterTable(t.name).renameColumn(was, c.name).execute();
        haveCols.delete(was);
        haveCols.add(c.name);
        report.renamed.push(`${t.name}.${was} → ${t.name}.${c.name}`);
        continue;
      }
      await database.db.schema.alterTable(t.name).addColumn(c.name, columnType(database.dialect, c)).execute();
      report.addedColumns.push(`${t.name}.${c.name}`);
    }
    for (const c of haveCols) if (!wantCols.has(c)) report.orphanColumns.push(`${t.name}.${c}`);
  }
  // a table under an earlier name of a wanted one was renamed or reported above: no orphan
  const accounted = new Set(wanted.flatMap((t) => t.formerly ?? []));
  for (const t of tables) {
    if (!wantedNames.has(t.name) && !accounted.has(t.name) && madeByFolio(t.columns.map((c) => c.name))) report.orphanTables.push(t.name);
  }
  // read after the tables are made: those created with their indexes (Dialect.indexesInCreateTable) need none
  const indexes = await existingIndexes(database);
  const declared = new Set(wanted.flatMap((t) => t.indexes.map((i) => i.name)));
  for (const t of wanted) await createIndexes(database, t, indexes, declared);
  report.tableVersions = await seedTableVersions(database, wanted);
  return report;
}
