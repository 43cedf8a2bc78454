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
  // one upsert creates the row on first use or else writes it: an update, then an insert of a missing
  // row, made concurrent first uses deadlock on MySQL (each insert waits on the others' share locks)
  const insert = tx.insertInto(TABLE).values({ name, taken: 1 });
  const taken = sql`${sql.ref(`${TABLE}.taken`)} + 1`;
  await (dialect.insertIgnore === 'ignore'
    ? insert.onDuplicateKeyUpdate({ taken })
    : insert.onConflict((oc) => oc.column('name').doUpdateSet({ taken }))).execute();
}
