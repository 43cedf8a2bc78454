// PostgreSQL: a deferred constraint trigger per table bumps its counter when the writing transaction
// commits — once per table and transaction (a transaction-local setting remembers it did, and the
// version it bumped to) — so the counter's row lock is held only through the commit, not from the
// first write on; for a bucketed table (table-buckets.ts) each row written also notes that version
// against its bucket. Whoever writes (another process, a SQL console) does this too. The function
// keeps the search_path it was created with, so the counters it updates are this schema's whatever
// the writer's path.
import { sql, type Kysely } from 'kysely';
import { VERSIONS_TABLE } from '../table-versions.js';
import { BUCKETS_TABLE, bucketSql, type VersionedTable } from '../table-buckets.js';

const FUNCTION = 'folio_bump_table_version';
const literal = (s: string): string => `'${s.replace(/'/g, "''")}'`;
const ident = (s: string): string => `"${s.replace(/"/g, '""')}"`;
const codeAt = (expr: string, k: number): string => `coalesce(ascii(substr(${expr}, length(${expr}) - ${k - 1}, 1)), 0)`;

/** the trigger's name: it changes with what the trigger does, so a sync replaces an older one */
const triggerName = (t: VersionedTable): string => `folio_tv${t.partition ? `_${t.partition.kind}_${t.partition.column}` : ''}`;

const functionSql = `create or replace function ${FUNCTION}() returns trigger language plpgsql set search_path from current as $fn$
declare
  v bigint;
  k text;
begin
  -- a setting's name takes only identifier characters, and folds case: the table's name is hashed
  k := md5(tg_table_name);
  if current_setting('folio.v.t' || k, true) is distinct from txid_current()::text then
    perform set_config('folio.v.t' || k, txid_current()::text, true);
    update ${VERSIONS_TABLE} set version = version + 1 where table_name = tg_table_name returning version into v;
    perform set_config('folio.vv.t' || k, v::text, true);
  end if;
  if tg_nargs = 2 then
    v := coalesce(current_setting('folio.vv.t' || k, true), '0')::bigint;
    foreach k in array array[case when tg_op <> 'INSERT' then to_jsonb(old) ->> tg_argv[0] end, case when tg_op <> 'DELETE' then to_jsonb(new) ->> tg_argv[0] end] loop
      if k is not null then
        insert into ${BUCKETS_TABLE} (table_name, bucket, version)
        values (tg_table_name, case when tg_argv[1] = 'int' then ${bucketSql('int', 'k::bigint', codeAt)} else ${bucketSql('text', 'k', codeAt)} end, v)
        on conflict (table_name, bucket) do update set version = excluded.version where ${BUCKETS_TABLE}.version is distinct from excluded.version;
      end if;
    end loop;
  end if;
  return null;
end $fn$`;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the tables come from the model
export async function postgresVersionTriggers(db: Kysely<any>, tables: readonly VersionedTable[]): Promise<void> {
  await sql.raw(functionSql).execute(db);
  const existing = await sql<{
    table: string;
    name: string;
  }>`select c.relname as "table", g.tgname as name from pg_trigger g join pg_class c on c.oid = g.tgrelid join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = current_schema() and not g.tgisinternal`.execute(db);
  const have = new Map<string, Set<string>>();
  for (const r of existing.rows) {
    if (!r.name.startsWith('folio_t')) continue;
    let s = have.get(r.table);
    if (!s) have.set(r.table, (s = new Set()));
    s.add(r.name);
  }
  for (const t of tables) {
    const name = triggerName(t);
    const on = have.get(t.name) ?? new Set<string>();
    for (const old of on) if (old !== name) await sql.raw(`drop trigger if exists ${ident(old)} on ${ident(t.name)}`).execute(db);
    if (on.has(name)) continue;
    const args = t.partition ? `${literal(t.partition.column)}, ${literal(t.partition.kind)}` : '';
    await sql
      .raw(
        `create constraint trigger ${ident(name)} after insert or update or delete on ${ident(t.name)} deferrable initially deferred for each row execute function ${FUNCTION}(${args})`,
      )
      .execute(db);
  }
}
