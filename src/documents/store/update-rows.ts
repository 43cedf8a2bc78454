// Rows of one write updated with values of their own (the components a list keeps by id), in a few
// statements whatever their number: on PostgreSQL an UPDATE per row, all in one statement
// (write-batch.ts); elsewhere one UPDATE per table whose columns take each row's value by its id.
import { sql } from 'kysely';
import { placesBy } from './insert-rows.js';
import { MAX_PARAMETERS, type Store } from './store.js';
import { runWrites } from './write-batch.js';

export interface RowUpdate {
  readonly table: string;
  readonly id: number;
  readonly cols: Readonly<Record<string, unknown>>;
}

export async function updateRows(s: Store, rows: readonly RowUpdate[]): Promise<void> {
  if (rows.length <= 1 || s.dialect.writesInOneStatement) {
    await runWrites(
      s,
      rows.map((r) => s.tx.updateTable(r.table).set(r.cols).where('id', '=', r.id)),
    );
    return;
  }
  for (const [table, places] of placesBy(rows, (r) => r.table)) {
    const all = places.map((i) => rows[i]!);
    const perRow = all.reduce((most, r) => Math.max(most, Object.keys(r.cols).length), 1);
    // MySQL and SQLite try a row's `when`s one by one: a statement's cost grows with the square of its rows
    const step = Math.min(1000, Math.max(1, Math.floor(MAX_PARAMETERS / (perRow + 1))));
    for (let from = 0; from < all.length; from += step) await updateTogether(s, table, all.slice(from, from + step));
  }
}

/** One UPDATE of the rows: each column is `case id when … then <the row's value> … else <as it was> end`. */
async function updateTogether(s: Store, table: string, rows: readonly RowUpdate[]): Promise<void> {
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r.cols)))];
  const set = Object.fromEntries(
    columns.map((column) => {
      const given = rows.filter((r) => Object.hasOwn(r.cols, column));
      const whens = given.map((r) => sql`when ${sql.lit(r.id)} then ${r.cols[column]}`);
      return [column, sql`case ${sql.ref('id')} ${sql.join(whens, sql` `)} else ${sql.ref(column)} end`];
    }),
  );
  await s.tx
    .updateTable(table)
    .set(set)
    .where(
      'id',
      'in',
      rows.map((r) => r.id),
    )
    .execute();
}
