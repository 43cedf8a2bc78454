// The table counters (database/table-versions.ts) as the response cache needs them, read at most once
// per change mark: while the database's mark stays put nothing was written, so the counters read at
// that mark still hold.
import type { Database } from '../database/dialect.js';
import type { TableVersionMap } from '../database/table-versions.js';

export class VersionClock {
  /** counters read between two sightings of the same mark: exactly the state at that mark */
  private memo: { readonly mark: string; readonly versions: TableVersionMap } | undefined;

  constructor(private readonly database: Database) {}

  /** Counters at least as new as `mark` (a request that began there may compare an entry with them). */
  async after(mark: string): Promise<TableVersionMap> {
    if (this.memo?.mark === mark) return this.memo.versions;
    return (await this.read(mark)).versions;
  }

  private async read(mark: string): Promise<{ versions: TableVersionMap }> {
    const versions = await this.database.tableVersions();
    // `mark` was seen before the counters were read: the same mark after them means none moved in between
    if ((await this.database.changeMark()) === mark) this.memo = { mark, versions };
    return { versions };
  }
}
