// The table counters (database/table-versions.ts) as the response cache needs them, read at most once
// per change mark: counters read after a mark was seen are at least as new as that mark, and while the
// mark stays put nothing was written, so they still hold for every request that sees it. With the
// counters come the buckets written since the last read (database/table-buckets.ts), kept here as the
// version that last wrote each bucket of each table.
import type { Database } from '../database/dialect.js';
import type { TableVersionMap } from '../database/table-versions.js';
import { BUCKETS } from '../database/table-buckets.js';
import { sharedFreshRead } from '../database/shared-fresh-read.js';

/** What the cache judges an entry by: the counters, and since when a table's given buckets stand unwritten. */
export interface TableState {
  version(table: string): number;
  /** whether none of `buckets` of `table` was written after `version` */
  bucketsStandSince(table: string, version: number, buckets: readonly number[]): boolean;
}

export class VersionClock {
  private memo: { readonly mark: string; readonly state: TableState } | undefined;
  /** per table: the counter up to which its bucket writes are known here, from the first counter seen on */
  private readonly known = new Map<string, { since: number; upTo: number; lastWrite: Float64Array | undefined }>();

  /** callers needing counters read after they asked share reads (shared-fresh-read.ts) */
  private readonly read = sharedFreshRead(async (): Promise<TableVersionMap> => {
    // each table's bucket writes past what is known of it come with the counters, from one snapshot
    const since = new Map<string, number>();
    for (const [table, k] of this.known) since.set(table, k.upTo);
    const { versions, changes } = await this.database.tableVersions(since);
    for (const c of changes) {
      const k = this.known.get(c.table);
      if (!k) continue;
      const w = (k.lastWrite ??= new Float64Array(BUCKETS));
      if (c.version > w[c.bucket]!) w[c.bucket] = c.version;
    }
    // known now: every write up to these counters (from the `since` asked for, which is at most what
    // was known by now); a table seen for the first time is known from its counter on
    for (const [table, v] of versions) {
      const k = this.known.get(table);
      if (!k) this.known.set(table, { since: v, upTo: v, lastWrite: undefined });
      else if (v > k.upTo) k.upTo = v;
    }
    return versions;
  });

  constructor(private readonly database: Database) {}

  /** Counters at least as new as `mark`, which the caller saw before asking. */
  async after(mark: string): Promise<TableState> {
    if (this.memo?.mark === mark) return this.memo.state;
    const state = this.stateOf(await this.read());
    this.memo = { mark, state };
    return state;
  }

  private stateOf(versions: TableVersionMap): TableState {
    return {
      version: (table) => versions.get(table) ?? 0,
      bucketsStandSince: (table, version, buckets) => {
        const k = this.known.get(table);
        // writes before the first counter seen are not known; nor are those past what was read
        if (!k || version < k.since || (versions.get(table) ?? 0) > k.upTo) return false;
        const w = k.lastWrite;
        return w === undefined || buckets.every((b) => w[b]! <= version);
      },
    };
  }
}
