// What differs between SQLite, PostgreSQL and MySQL/MariaDB, behind one small interface.
// Everything else in Folio is dialect-blind: it asks this object, never the client's name.
import type { TableVersions } from './table-versions.js';
import type { VersionedTable } from './table-buckets.js';
import type { ReadRecorder, RecordedReads } from './read-recording.js';
import type { ColumnDataType, Expression, IsolationLevel, Kysely, RawBuilder, SqlBool } from 'kysely';
import type { ScalarType } from '../schema/types.js';

export type DialectName = 'sqlite' | 'postgres' | 'mysql';

/** one list of Dialect.keyRows: its column name, values and their type */
export interface KeyColumn {
  readonly name: string;
  readonly values: readonly number[] | readonly string[];
  readonly type: 'integer' | 'text';
}

export interface Dialect {
  readonly name: DialectName;
  /** column type for an attribute type */
  columnType(type: ScalarType): ColumnDataType | RawBuilder<unknown>;
  /** type of the auto-increment primary key, and whether it needs the AUTOINCREMENT keyword */
  readonly idType: 'integer' | 'serial';
  readonly autoIncrement: boolean;
  /** a query listing the indexes of the current database: each one's `name` and its `table` */
  readonly indexNames: RawBuilder<{ name: string; table: string }>;
  /**
   * true when CREATE TABLE may declare the table's indexes (MySQL's `INDEX name (…)` clauses): a table
   * the sync creates gets them in that one statement, where each CREATE INDEX would be a statement, and
   * on MySQL a table alteration, of its own. PostgreSQL and SQLite make indexes only with CREATE INDEX.
   */
  readonly indexesInCreateTable: boolean;
  /** true when DROP INDEX must name the index's table (MySQL: indexes are per table) */
  readonly dropIndexOnTable: boolean;
  /** a Unicode-aware lower-casing of an expression (SQLite's lower() is ASCII-only) */
  lower(expr: Expression<unknown>): RawBuilder<string>;
  /** `expr` [not] matches a LIKE pattern (escape `!`) whatever the case of either (like-insensitive.ts) */
  likeInsensitive(expr: Expression<unknown>, pattern: string, negate: boolean): RawBuilder<SqlBool>;
  /** how a LIKE pattern reaches a case-sensitive match: bound, or written in where that gets it a plan of its own */
  likePattern(pattern: string): Expression<string>;
  /**
   * `expr` is one of `values` (row ids, or text keys such as document ids; never empty). PostgreSQL
   * takes the list as one array parameter: an `in` list of a hundred parameters cost its backend three
   * times the CPU of `= any($1)` (binding each value, a custom plan per length), and one text serves
   * every length. The others list the values (`in (…)`).
   */
  oneOf(expr: Expression<unknown>, values: readonly number[] | readonly string[], type: 'integer' | 'text'): RawBuilder<SqlBool>;
  /**
   * A FROM item holding one row per key, with a column `name` for each list given (its values row by
   * row) and the row's place as `i` (counted from 1), so that one correlated subquery per key runs in a
   * statement planned once whatever the number of keys: PostgreSQL's unnest of array parameters WITH
   * ORDINALITY, SQLite's json_each of one JSON text. null where keys are written as a union of one
   * SELECT per key instead (MySQL): PostgreSQL plans each branch of such a union on its own, 0.4–0.8 ms
   * a branch, so the 10,000 links one write may name took 12 s of planning; SQLite took 1.5 s of its
   * event loop to build and prepare them.
   */
  readonly keyRows: ((alias: string, columns: readonly KeyColumn[]) => RawBuilder<unknown>) | null;
  /** a number as the database prints it, for text matching (MySQL has no CAST … AS TEXT) */
  text(expr: Expression<unknown>): RawBuilder<string>;
  /** value written to a datetime column */
  toDatetime(d: Date): unknown;
  /** value written to a boolean column */
  toBoolean(b: boolean): unknown;
  /** the decimal places a decimal column keeps, rounding the rest (numeric(10,2)); null when it keeps them all (SQLite's real) */
  readonly decimalPlaces: number | null;
  /** what to write to the id column of a row with no other values (SQLite has no DEFAULT in VALUES) */
  readonly newId: 'null' | 'default';
  /** true when INSERT … RETURNING is available (SQLite, PostgreSQL); MySQL uses insertId */
  readonly returning: boolean;
  /** how an INSERT skips a row whose unique key exists: ON CONFLICT DO NOTHING, or MySQL's INSERT IGNORE */
  readonly insertIgnore: 'on-conflict' | 'ignore';
  /**
   * true when an upsert can return the row it wrote in the same statement (INSERT … ON CONFLICT DO
   * UPDATE … RETURNING: SQLite, PostgreSQL); else MySQL's INSERT … ON DUPLICATE KEY UPDATE, read
   * back inside the same transaction (the upsert's row lock keeps other writers out until the commit)
   */
  readonly upsertReturning: boolean;
  /** true when a table's next ids can be taken ahead of inserting its rows (PostgreSQL's serial sequences) */
  readonly idsFromSequence: boolean;
  /**
   * The step between the ids one multi-row INSERT gives its rows, when the server gives them in a run
   * from the first it reports (MySQL/MariaDB with innodb_autoinc_lock_mode 0 or 1, read at connect);
   * null when it may interleave another insert's ids with them, or reports no first id.
   */
  readonly consecutiveIds: number | null;
  /** true when independent writes can travel as one statement (PostgreSQL's data-modifying WITH) */
  readonly writesInOneStatement: boolean;
  /** extra table options appended at CREATE TABLE (MySQL: binary collation for case-sensitive compare) */
  readonly tableSuffix: string;
  /** true when a subquery in FROM may name the enclosing query's row (SQLite, PostgreSQL; not MariaDB) */
  readonly correlatedDerivedTables: boolean;
  /** true when ascending sorts already put NULLs first (SQLite, MySQL); else it is asked for */
  readonly nullsFirstOnAsc: boolean;
  /** appended to a string sort key so every dialect orders by code point (PostgreSQL: COLLATE "C") */
  readonly binarySort: string;
  /**
   * Isolation level of write transactions, when the server's default isn't read committed. MySQL's
   * repeatable read keeps the snapshot of a transaction's first read, so a check made after taking a
   * lock (key-lock.ts) would not see what the previous holder committed; read committed, PostgreSQL's
   * default, gives every statement a fresh one.
   */
  readonly writeIsolation: IsolationLevel | null;
  /**
   * true when SELECT … FOR UPDATE locks the rows it reads (PostgreSQL, MySQL). SQLite has no row locks
   * and needs none: a transaction holds the whole database's write lock from its start (sqlite-immediate.ts).
   */
  readonly rowLocks: boolean;
  /**
   * The clause that locks the rows a SELECT reads against deletion (and against FOR UPDATE) while
   * letting other writers take the same lock: a write linking to a document holds it so a concurrent
   * delete of that document waits for the link, and then removes it. Unused without rowLocks.
   */
  readonly sharedRowLock: string;
  /**
   * The clause a writer locks its own document's rows with: one writer of a document at a time, while
   * writes linking to it (sharedRowLock) go on — PostgreSQL's FOR NO KEY UPDATE. Where the shared lock
   * waits for it as for FOR UPDATE (MySQL), two documents linking each other deadlock, and the write is
   * rerun (write-transaction.ts).
   */
  readonly writerRowLock: string;
  /** true for an error after which rerunning the whole transaction can succeed (deadlock, serialization failure, busy) */
  isTransient(error: unknown): boolean;
  /**
   * Statements that take and release a lock on the whole database, run on one connection around the
   * schema sync so processes starting together sync one at a time (each re-reads the schema once it
   * holds the lock). `take` waits for the lock; a row with `locked` 0 means it gave up waiting.
   */
  readonly schemaLock: { readonly take: RawBuilder<unknown>; readonly release: RawBuilder<unknown> };
  /**
   * Statements that lift the configured statement bound (config/database `statement_timeout`) from one
   * connection and put it back, each run on its own (PostgreSQL arms the bound as a statement starts):
   * the schema sync runs between them, as waiting for another process's sync or building an index on a
   * large table may rightly take longer than any request should. null where the bound never reaches the
   * sync's connection (SQLite has none; MySQL bounds content reads only). `liftInTransaction` lifts it
   * until the end of the transaction it runs in: start-up's seeding waits there for another process's.
   */
  readonly statementBound: { readonly lift: RawBuilder<unknown>; readonly restore: RawBuilder<unknown>; readonly liftInTransaction: RawBuilder<unknown> } | null;
  /**
   * Statements that make the database itself bump a table's counter (table-versions.ts) in every
   * transaction that writes the table, whoever writes it (another process, a SQL console); run by the
   * schema sync, idempotent. null: no counters on this dialect (MySQL, whose change mark sees only
   * this process: its response cache is off unless asked for, and then keeps a body only while
   * the mark stays put).
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tables come from the model at run time
  readonly versionTriggers: ((db: Kysely<any>, tables: readonly VersionedTable[]) => Promise<void>) | null;
}

export interface Database {
  /** one object per opened database, shared by the copies recordReads hands out: what per-database registries key on */
  readonly identity: object;
  readonly db: Kysely<any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tables come from the model at run time
  /**
   * Where a read outside any transaction goes: PostgreSQL's pipelined read connections, MySQL's second
   * pool (connections writes waiting for a lock can't take: they hold the writes' pool's); on SQLite `db`.
   */
  readonly reads: Kysely<any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tables come from the model at run time
  readonly dialect: Dialect;
  /** number of SQL statements executed so far (tests assert N+1 freedom with it) */
  statements(): number;
  /**
   * A mark that moves whenever the data may have changed: at every write statement and transaction
   * end in this process and, on SQLite and PostgreSQL, when another connection or process wrote.
   * Equal marks mean no change in between, which is what lets a response be reused.
   */
  changeMark(): Promise<string>;
  /** true when changeMark() also sees writes by other processes (SQLite's data_version, PostgreSQL's snapshot) */
  readonly seesOtherWriters: boolean;
  /** called by the schema sync once every table's counter is kept by the database's own triggers */
  startTableVersions(tables: readonly VersionedTable[]): void;
  /** whether the table counters are kept (a synced SQLite or PostgreSQL database) */
  tableVersionsActive(): boolean;
  /**
   * every table's change counter (table-versions.ts), read after the call, with the bucket writes
   * (table-buckets.ts) of each table in `since` past the version given for it
   */
  tableVersions(since: ReadonlyMap<string, number>): Promise<TableVersions>;
  /** runs a read on a copy of this database that records them, and answers the tables its statements named */
  recordReads<T>(read: (recording: Database) => Promise<T>): Promise<{ value: T; reads: RecordedReads }>;
  /** on a copy recordReads hands out: where its reads say which keys of a table they were limited to */
  readonly recorder?: ReadRecorder;
  close(): Promise<void>;
}
