// Work a write can't do inside its own transaction and leaves for after its commit: a publish that
// would have to wait for another writer's document while holding its own (two such publishes waiting
// for each other deadlock) skips that document, and comes back for it here, holding nothing.
import type { Database } from '../../database/dialect.js';
import { writeTransaction } from '../../database/write-transaction.js';
import type { AfterCommitQueue, Store } from './store.js';

export class AfterCommit implements AfterCommitQueue {
  private readonly work: ((s: Store) => Promise<void>)[] = [];

  add(work: (s: Store) => Promise<void>): void {
    this.work.push(work);
  }

  /** Runs each piece left, in order, each in a transaction of its own (rerun whole on a passing refusal). */
  async run(database: Database): Promise<void> {
    for (const work of this.work) await writeTransaction(database, (tx) => work({ tx, dialect: database.dialect }));
  }
}
