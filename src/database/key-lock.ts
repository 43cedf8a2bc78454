// A named lock held until the end of the current transaction, the same on every dialect: the
// transaction writes the lock's row, so a second one taking the same name waits for the first to end
// (a row lock on PostgreSQL and MySQL; SQLite's write lock, taken before anything is read so no
// snapshot goes stale). A check-then-write that must not race (one account per email, one
// single-type document) takes the lock first and reads afterwards: the read then sees what the
// previous holder committed.
import { sql } from 'kysely';
import type { Dialect } from './dialect.js';
import type { Tx } from '../documents/store/rows.js';

const TABLE = 'folio_locks';

export async function lockKey(tx: Tx, dialect: Dialect, name: string): Promise<void> {
  const taken = sql`${sql.ref(`${TABLE}.taken`)} + 1`;
  // the usual case, a name used before: an update locks just its row (an upsert that finds the row
  // would also lock the gap beside it on MySQL, making unrelated names wait on each other)
  const updated = await tx.updateTable(TABLE).set({ taken }).where('name', '=', name).executeTakeFirst();
  if (Number(updated.numUpdatedRows) > 0) return;
  // first use: one upsert creates the row or, when a concurrent first user made it meanwhile, waits
  // for it and writes it. An insert-or-ignore followed by an update deadlocked concurrent first
  // uses on MySQL (each insert waited on the others' share locks, then each update on the others).
  const insert = tx.insertInto(TABLE).values({ name, taken: 1 });
  await (dialect.insertIgnore === 'ignore' ? insert.onDuplicateKeyUpdate({ taken }) : insert.onConflict((oc) => oc.column('name').doUpdateSet({ taken }))).execute();
}
