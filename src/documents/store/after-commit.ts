// Work a write can't do inside its own transaction and leaves for after its commit: a publish that
// would have to wait for another writer's document while holding its own (two such publishes waiting
// for each other deadlock) skips that document, and comes back for it here, holding nothing.
import type { Database } from '../../database/dialect.js';
import { writeTransaction } from '../../database/write-transaction.js';
import { ServiceUnavailableError } from '../../errors.js';
import type { AfterCommitQueue, Store } from './store.js';

export class AfterCommit implements AfterCommitQueue {
  private readonly work: ((s: Store) => Promise<void>)[] = [];

  add(work: (s: Store) => Promise<void>): void {
    this.work.push(work);
  }

  /** Runs each piece left, in order, each in a transaction of its own (rerun whole on a passing refusal). */
  async run(database: Database): Promise<void> {
    for (const work of this.work) {
      try {
        await writeTransaction(database, (tx) => work({ tx, dialect: database.dialect }));
      } catch (e) {
        // the write itself has committed: "nothing was written" would be untrue, and sending it again
        // does the follow-up work again (it adds only what is still missing)
        if (e instanceof ServiceUnavailableError)
          throw new ServiceUnavailableError('The write was saved, but the database was too busy to finish updating the documents linking to it; send it again to finish');
        throw e;
      }
    }
  }
}
