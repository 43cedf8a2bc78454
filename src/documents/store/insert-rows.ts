// Rows inserted together that each need their new id back (the new components of one list). Where a
// table's ids come from a sequence a statement can name (PostgreSQL's serial columns), the ids are
// taken from it in one statement and the rows inserted under them in another, whatever their number:
// a row at a time cost a round trip each (a 10,000-entry list in one request: 20,000 of them).
// Where the server numbers a multi-row INSERT's rows in a run (MySQL/MariaDB in the auto-increment lock
// modes that promise it), a table's rows go in one INSERT and their ids follow from the first.
// Elsewhere, or for one row, each row is inserted on its own as insertRow does.
import { sql, type RawBuilder } from 'kysely';
import { insertRow, insertsOf, rowValues, type Store } from './rows.js';
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
  if (rows.length >= 2 && s.dialect.idsFromSequence) return insertUnderSequenceIds(s, rows);
  if (rows.length >= 2 && s.dialect.consecutiveIds !== null) return insertConsecutive(s, rows, s.dialect.consecutiveIds);
  const ids: number[] = [];
  for (const r of rows) ids.push(await insertRow(s, r.table, { ...r.values }));
  return ids;
}

/** the places of the items under each key, keys in the order first met */
export function placesBy<T, K>(items: readonly T[], key: (item: T) => K): [K, number[]][] {
  const byKey = new Map<K, number[]>();
  items.forEach((item, i) => {
    const k = key(item);
    let at = byKey.get(k);
    if (!at) byKey.set(k, (at = []));
    at.push(i);
  });
  return [...byKey];
}

const placesByTable = (rows: readonly RowToInsert[]): [string, number[]][] => placesBy(rows, (r) => r.table);

/**
 * A multi-row INSERT per table (as many as the parameter bound asks): the server reports the first
 * row's id and gives the others the ids after it, `step` apart, in the order the rows are listed.
 */
async function insertConsecutive(s: Store, rows: readonly RowToInsert[], step: number): Promise<number[]> {
  const ids = new Array<number>(rows.length);
  for (const [table, at] of placesByTable(rows)) {
    let next = 0;
    for (const insert of insertsOf(
      s,
      table,
      // a row with no values of its own names its id as DEFAULT, which the other rows' VALUES then take too
      at.map((i) => rowValues(s, rows[i]!.values)),
    )) {
      const r = await insert.executeTakeFirstOrThrow();
      const first = Number(r.insertId);
      const count = Number(r.numInsertedOrUpdatedRows);
      for (let j = 0; j < count; j++) ids[at[next + j]!] = first + j * step;
      next += count;
    }
  }
  return ids;
}

/** Ids taken from each table's sequence in one statement, then the rows inserted under them. */
async function insertUnderSequenceIds(s: Store, rows: readonly RowToInsert[]): Promise<number[]> {
  const tables = placesByTable(rows);
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
