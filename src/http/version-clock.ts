// The table counters (database/table-versions.ts) as the response cache needs them, read at most once
// per change mark: counters read after a mark was seen are at least as new as that mark, and while the
// mark stays put nothing was written, so they still hold for every request that sees it.
import type { Database } from '../database/dialect.js';
import type { TableVersionMap } from '../database/table-versions.js';

export class VersionClock {
  private memo: { readonly mark: string; readonly versions: TableVersionMap } | undefined;

  constructor(private readonly database: Database) {}

  /** Counters at least as new as `mark`, which the caller saw before asking. */
  async after(mark: string): Promise<TableVersionMap> {
    if (this.memo?.mark === mark) return this.memo.versions;
    const versions = await this.database.tableVersions();
    this.memo = { mark, versions };
    return versions;
  }
}
