// SQLite: three row triggers per table bump its counter in the writing transaction, whichever
// connection or process writes, and note the new version against the bucket of each row written
// (table-buckets.ts). A counter row is a few bytes in one small table, so a row trigger costs
// microseconds. Folio's triggers that are no longer wanted (an earlier version's) are dropped.
import { sql, type Kysely } from 'kysely';
import { VERSIONS_TABLE } from '../table-versions.js';
import { BUCKETS_TABLE, bucketSql, type VersionedTable } from '../table-buckets.js';

const ident = (s: string): string => `"${s.replace(/"/g, '""')}"`;
const literal = (s: string): string => `'${s.replace(/'/g, "''")}'`;
const codeAt = (expr: string, k: number): string => `coalesce(unicode(substr(${expr}, -${k}, 1)), 0)`;

const ROWS: Record<string, readonly ('OLD' | 'NEW')[]> = { insert: ['NEW'], update: ['OLD', 'NEW'], delete: ['OLD'] };

/** the trigger's name: it changes with what the trigger does, so a sync replaces an older one */
const triggerName = (t: VersionedTable, op: string): string => `folio_tv_${t.name}_${op}${t.partition ? `_${t.partition.column}` : ''}`;

function body(t: VersionedTable, op: string): string {
  const bump = `update ${VERSIONS_TABLE} set version = version + 1 where table_name = ${literal(t.name)};`;
  const p = t.partition;
  if (!p) return bump;
  const notes = ROWS[op]!.map(
    (row) =>
      `insert into ${BUCKETS_TABLE} (table_name, bucket, version) select ${literal(t.name)}, ${bucketSql(p.kind, `${row}.${ident(p.column)}`, codeAt)}, version ` +
      `from ${VERSIONS_TABLE} where table_name = ${literal(t.name)} and ${row}.${ident(p.column)} is not null ` +
      `on conflict (table_name, bucket) do update set version = excluded.version;`,
  );
  return [bump, ...notes].join(' ');
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the tables come from the model
export async function sqliteVersionTriggers(db: Kysely<any>, tables: readonly VersionedTable[]): Promise<void> {
  const wanted = new Map(tables.flatMap((t) => Object.keys(ROWS).map((op) => [triggerName(t, op), { t, op }] as const)));
  const existing = await sql<{ name: string }>`select name from sqlite_master where type = 'trigger'`.execute(db);
  const have = new Set(existing.rows.map((r) => r.name).filter((n) => n.startsWith('folio_')));
  for (const name of have) if (!wanted.has(name)) await sql.raw(`drop trigger if exists ${ident(name)}`).execute(db);
  for (const [name, w] of wanted) {
    if (!have.has(name)) await sql.raw(`create trigger ${ident(name)} after ${w.op} on ${ident(w.t.name)} begin ${body(w.t, w.op)} end`).execute(db);
  }
}
