// Rows inserted together that each need their new id back (the new components of one list). Where a
// table's ids come from a sequence a statement can name (PostgreSQL's serial columns), the ids are
// taken from it in one statement and the rows inserted under them in another, whatever their number:
// a row at a time cost a round trip each (a 10,000-entry list in one request: 20,000 of them).
// Elsewhere, or for one row, each row is inserted on its own as insertRow does.
import { sql, type RawBuilder } from 'kysely';
import { insertRow, insertsOf, type Store } from './rows.js';
import { runWrites } from './write-batch.js';

export interface RowToInsert {
  readonly table: string;
  readonly values: Readonly<Record<string, unknown>>;
}

/** The next value of a table's id sequence, for a statement that takes ids ahead of its insert. */
export function nextId(table: string): RawBuilder<number> {
  return sql<number>`nextval(pg_get_serial_sequence(${`"${table.replace(/"/g, '""')}"`}, 'id'))`;
}

/** The new rows' ids, in the order given. */
export async function insertRows(s: Store, rows: readonly RowToInsert[]): Promise<number[]> {
  if (rows.length < 2 || !s.dialect.idsFromSequence) {
    const ids: number[] = [];
    for (const r of rows) ids.push(await insertRow(s, r.table, { ...r.values }));
    return ids;
  }
  const byTable = new Map<string, number[]>();
  rows.forEach((r, i) => {
    let at = byTable.get(r.table);
    if (!at) byTable.set(r.table, (at = []));
    at.push(i);
  });
  const tables = [...byTable];
  const picks = tables.map(([table, at], k) => sql`select ${sql.lit(k)} as k, ${nextId(table)} as id from generate_series(1, ${sql.lit(at.length)})`);
  const taken = await sql<{ k: number; id: string | number }>`${sql.join(picks, sql` union all `)}`.execute(s.tx);
  const idsOf = tables.map((): number[] => []);
  for (const r of taken.rows) idsOf[r.k]!.push(Number(r.id));
  const ids = new Array<number>(rows.length);
  const writes = tables.flatMap(([table, at], k) => {
    // ascending in the order given, as inserting them one by one numbered them
    const mine = idsOf[k]!.sort((a, b) => a - b);
    at.forEach((i, j) => (ids[i] = mine[j]!));
    return insertsOf(
      s,
      table,
      at.map((i) => ({ ...rows[i]!.values, id: ids[i] })),
    );
  });
  await runWrites(s, writes);
  return ids;
}
