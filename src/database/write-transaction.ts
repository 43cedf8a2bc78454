// Every write is one transaction (design: "one write, one transaction"); this runs it, and reruns
// the whole of it when the database refused it for a reason that passes: a deadlock or a
// serialization failure (the server rolled the transaction back) or a write lock another process
// held past the busy timeout. Rerunning only the failed statement would be wrong: what the
// transaction read before it may no longer hold.
import { ServiceUnavailableError } from '../errors.js';
import type { Database } from './dialect.js';

type Db = Database['db'];

/** attempts in all before the write is refused with a 503 */
export const WRITE_ATTEMPTS = 8;

/** A random wait that doubles with each attempt (5–10 ms, then 10–20, …): rerun writers spread out. */
function pause(attempt: number): Promise<void> {
  const base = 5 * 2 ** (attempt - 1);
  return new Promise((resolve) => setTimeout(resolve, base + Math.random() * base));
}

export async function writeTransaction<T>(database: Database, work: (tx: Db) => Promise<T>): Promise<T> {
  const { db, dialect } = database;
  for (let attempt = 1; ; attempt++) {
    try {
      const begin = dialect.writeIsolation ? db.transaction().setIsolationLevel(dialect.writeIsolation) : db.transaction();
      return await begin.execute(work);
    } catch (e) {
      if (!dialect.isTransient(e)) throw e;
      if (attempt >= WRITE_ATTEMPTS) {
        throw new ServiceUnavailableError(`The database is too busy with other writes to take this one (${WRITE_ATTEMPTS} attempts); nothing was written, send it again`);
      }
      await pause(attempt);
    }
  }
}

/**
 * `database` with its statements sent on `db`, a transaction's connection: a write reads its
 * document back there, before the commit, rather than queueing for another pooled connection after it.
 */
export function onConnection(database: Database, db: Db): Database {
  return { ...database, db };
}
