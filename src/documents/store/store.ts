// What every storage step of one write works with: the transaction, the dialect and what the write
// keeps on the side. Its own module so rows, link queues and batches depend on it and not on each other.
import type { Kysely } from 'kysely';
import type { Dialect } from '../../database/dialect.js';
import type { NewRows } from './new-rows.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- table shapes come from the model at run time
export type Tx = Kysely<any>;

/** Link rows waiting to be written together (deferred-links.ts implements it). */
export interface LinkQueue {
  /** `order`: where the rows go among the table's others when written (their row's walk-order.ts place) */
  add(table: string, rows: readonly Record<string, unknown>[], order?: number): void;
  /** the links `owner` holds in `table` are to be these */
  replace(table: string, owner: LinkOwner, rows: readonly Record<string, unknown>[], order?: number): void;
  flush(s: Store, table?: string): Promise<void>;
}

/** The row whose links these are: its id in `column` (a relation's `source_id`, a media link's `related_id`), within `scope`. */
export interface LinkOwner {
  readonly column: string;
  readonly id: number;
  /** further columns the owner's links have these values in (a media link's type and field) */
  readonly scope?: Readonly<Record<string, string>>;
}

/** Work a write leaves for after its commit, each piece in a transaction of its own (after-commit.ts). */
export interface AfterCommitQueue {
  add(work: (s: Store) => Promise<void>): void;
}

export interface Store {
  readonly tx: Tx;
  readonly dialect: Dialect;
  /** rows created by the write under way, with their component links (document writes only) */
  readonly newRows?: NewRows;
  /** link rows of rows this write inserted, and of component rows it keeps, written together once the rows are done */
  readonly deferred?: LinkQueue;
  /** work that must wait for locks this write may not wait for while it holds its own (document writes only) */
  readonly afterCommit?: AfterCommitQueue;
  /** the files this write looked up and holds (media.ts), so that each is read once however many rows link it */
  readonly files?: FileLookups;
}

/** Files a write looked up, each held shared until it ends: by `#<id>` or documentId, the row id of those found. */
export interface FileLookups {
  readonly found: Map<string, number>;
  readonly looked: Set<string>;
}

/** Bound parameters per statement: SQLite allows 32766, PostgreSQL and MySQL 65535. */
export const MAX_PARAMETERS = 30_000;
