// SQLite: three row triggers per table bump its counter in the writing transaction, whichever
// connection or process writes. A counter row is a few bytes in one small table, so a row trigger
// costs microseconds.
import { sql, type RawBuilder } from 'kysely';
import { VERSIONS_TABLE } from '../table-versions.js';

const ident = (s: string): string => `"${s.replace(/"/g, '""')}"`;
const literal = (s: string): string => `'${s.replace(/'/g, "''")}'`;

export function sqliteVersionTriggers(tables: readonly string[]): RawBuilder<unknown>[] {
  return tables.flatMap((t) =>
    ['insert', 'update', 'delete'].map((op) =>
      sql.raw(
        `create trigger if not exists ${ident(`folio_version_${t}_${op}`)} after ${op} on ${ident(t)} ` +
          `begin update ${VERSIONS_TABLE} set version = version + 1 where table_name = ${literal(t)}; end`,
      ),
    ),
  );
}
