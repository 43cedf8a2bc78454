// A named lock held until the end of the current transaction, the same on every dialect: the
// transaction writes the lock's row, so a second one taking the same name waits for the first to end
// (a row lock on PostgreSQL and MySQL; SQLite's write lock, taken before anything is read so no
// snapshot goes stale). A check-then-write that must not race (one account per email, one
// single-type document) takes the lock first and reads afterwards: the read then sees what the
// previous holder committed.
import type { Dialect } from './dialect.js';
import type { Tx } from '../documents/store/rows.js';

const TABLE = 'folio_locks';

export async function lockKey(tx: Tx, dialect: Dialect, name: string): Promise<void> {
  const take = () => tx.updateTable(TABLE).set((eb) => ({ taken: eb('taken', '+', 1) })).where('name', '=', name).executeTakeFirst();
  if (Number((await take()).numUpdatedRows) > 0) return;
  // first use of this name: create its row (a concurrent creator's row wins quietly), then take it
  const insert = tx.insertInto(TABLE).values({ name, taken: 0 });
  await (dialect.insertIgnore === 'ignore' ? insert.ignore() : insert.onConflict((oc) => oc.column('name').doNothing())).execute();
  await take();
}
