// PostgreSQL: a deferred constraint trigger per table bumps its counter when the writing transaction
// commits — once per table and transaction (a transaction-local setting remembers it did) — so the
// counter's row lock is held only through the commit, not from the first write on. Whoever writes
// (another process, a SQL console) bumps it too. The function keeps the search_path it was created
// with, so the counters it updates are this schema's whatever the writer's path.
import { sql, type RawBuilder } from 'kysely';
import { VERSIONS_TABLE } from '../table-versions.js';

const TRIGGER = 'folio_table_version';
const FUNCTION = 'folio_bump_table_version';
const literal = (s: string): string => `'${s.replace(/'/g, "''")}'`;

export function postgresVersionTriggers(tables: readonly string[]): RawBuilder<unknown>[] {
  const fn = sql.raw(`create or replace function ${FUNCTION}() returns trigger language plpgsql set search_path from current as $fn$
begin
  if current_setting('folio.v.' || tg_table_name, true) is distinct from txid_current()::text then
    perform set_config('folio.v.' || tg_table_name, txid_current()::text, true);
    update ${VERSIONS_TABLE} set version = version + 1 where table_name = tg_table_name;
  end if;
  return null;
end $fn$`);
  const names = `array[${tables.map(literal).join(', ')}]::text[]`;
  const triggers = sql.raw(`do $do$
declare t text;
begin
  foreach t in array ${names} loop
    if not exists (
      select 1 from pg_trigger g join pg_class c on c.oid = g.tgrelid join pg_namespace n on n.oid = c.relnamespace
      where g.tgname = '${TRIGGER}' and c.relname = t and n.nspname = current_schema()
    ) then
      execute format('create constraint trigger ${TRIGGER} after insert or update or delete on %I deferrable initially deferred for each row execute function ${FUNCTION}()', t);
    end if;
  end loop;
end $do$`);
  return [fn, triggers];
}
