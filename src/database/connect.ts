// Opens a Kysely instance for the configured client, with the type parsing that makes the three
// dialects return the same JavaScript values, and a statement counter.
import { mkdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname } from 'node:path';
import {
  Kysely,
  MysqlDialect,
  sql,
  type Dialect as KyselyDialect,
  type DatabaseConnection,
  PostgresDialect,
  type PostgresDialectConfig,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from 'kysely';
import type { TypeCast } from 'mysql2';
import type { Database, Dialect, DialectName } from './dialect.js';
import { sqliteDialect, SQLITE_LOWER } from './dialects/sqlite.js';
import { postgresDialect } from './dialects/postgres.js';
import { mysqlDialect } from './dialects/mysql.js';
import { reusePreparedStatements } from './sqlite-statements.js';
import { ImmediateSqliteDialect } from './sqlite-immediate.js';
import { keepPlannerStatistics } from './sqlite-planner-statistics.js';
import { sharedFreshRead } from './shared-fresh-read.js';
import { PipelinedReads, PIPELINED_CHECKS_NAME, PIPELINED_READS_NAME, READ_CONNECTION_LIMITS } from './dialects/postgres-pipeline.js';
import { memoForTurn } from './turn-memo.js';
import { ReadRecorder, recordReadTables, type RecordedReads } from './read-recording.js';
import { BUCKETS_TABLE, type BucketChange, type Partition } from './table-buckets.js';
import { wrapDriver } from './wrap-driver.js';
import { VERSIONS_TABLE, type TableVersions } from './table-versions.js';
import { boundedSelects, isStatementTimeout, READ_TIMEOUT_MS, timeoutsAnswered } from './statement-timeout.js';
import { StatementTimeoutError } from '../errors.js';

export interface DatabaseConfig {
  client: DialectName;
  /** sqlite */
  filename?: string;
  /** postgres / mysql */
  url?: string;
  host?: string;
  port?: number;
  database?: string;
  user?: string;
  password?: string;
  schema?: string;
  ssl?: boolean;
  poolMax?: number;
  /** PostgreSQL: content reads as named prepared statements (default true) */
  preparedStatements?: boolean;
  /**
   * ms a statement may run, as set in config/database (`connection.statement_timeout`); 0 is no bound.
   * Content reads are bounded by it or by READ_TIMEOUT_MS; on PostgreSQL, where a Strapi project's
   * setting reaches every statement, so does it here, but for the schema sync's (Dialect.statementBound).
   */
  statementTimeout?: number;
}

/** Counts statements, and moves `writes` before and after every statement that isn't a SELECT. */
class StatementCounter implements KyselyPlugin {
  count = 0;
  writes = 0;
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    if (args.node.kind !== 'SelectQueryNode') this.writes++;
    return args.node;
  }
  // counted on the result: a query also passes transformQuery when it is only compiled or embedded in another
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    this.count++;
    if (args.result.numAffectedRows !== undefined || args.result.numChangedRows !== undefined) this.writes++;
    return args.result;
  }
}

/**
 * Wraps a dialect so that the end of every transaction calls `ended`: a reader on another pooled
 * connection sees a transaction's writes only from its commit on.
 */
function onTransactionEnd(inner: KyselyDialect, ended: () => void): KyselyDialect {
  const thenEnded =
    (end: (c: DatabaseConnection) => Promise<void>) =>
    async (c: DatabaseConnection): Promise<void> => {
      try {
        await end(c);
      } finally {
        ended();
      }
    };
  return wrapDriver(inner, (driver) => ({
    commitTransaction: thenEnded((c) => driver.commitTransaction(c)),
    rollbackTransaction: thenEnded((c) => driver.rollbackTransaction(c)),
  }));
}

interface Opened {
  readonly dialect: KyselyDialect;
  /**
   * PostgreSQL: the pipelined connections reads outside transactions share (dialects/postgres-pipeline.ts);
   * MySQL: a second pool of their own, its SELECTs bounded in time
   */
  readonly readDialect?: KyselyDialect;
  /**
   * PostgreSQL: a pipelined connection of its own for the small reads any request may make (its caller's
   * checks, the change mark, the table counters), which then wait neither for the writes' pool nor
   * behind a heavy content read; elsewhere they go with the reads
   */
  readonly checkDialect?: KyselyDialect;
  /** SQLite: PRAGMA data_version, which moves when another connection commits */
  readonly dataVersion?: () => number;
  /** what the server's settings change in the dialect's capabilities (MySQL: consecutiveIds) */
  readonly capabilities?: Pick<Dialect, 'consecutiveIds'>;
}

/** SQLite's page cache per connection, KiB */
const SQLITE_PAGE_CACHE_KIB = 8192;

async function sqlite(cfg: DatabaseConfig): Promise<Opened> {
  const { default: BetterSqlite } = await import('better-sqlite3');
  const file = cfg.filename ?? ':memory:';
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const conn = new BetterSqlite(file);
  conn.pragma('journal_mode = WAL');
  conn.pragma('synchronous = NORMAL');
  conn.pragma('foreign_keys = ON');
  conn.pragma('busy_timeout = 5000');
  // better-sqlite3 builds SQLite with a 16 MB page cache per connection. The database file is in the
  // OS's page cache anyway; 8 MB held the example app's hot pages (1,000 articles: no difference in CPU
  // per request, bench/cpu-ab.mjs) where 4 MB and 2 MB cost sorted and filtered reads 22–30 % more.
  conn.pragma(`cache_size = -${SQLITE_PAGE_CACHE_KIB}`);
  // LIKE compares case-sensitively, as on the other two dialects; $…i operators lower both sides
  conn.pragma('case_sensitive_like = ON');
  keepPlannerStatistics(conn);
  conn.function(SQLITE_LOWER, { deterministic: true }, (v: unknown) => (typeof v === 'string' ? letterLower(v) : v));
  const version = conn.prepare('pragma data_version').pluck();
  reusePreparedStatements(conn);
  return { dialect: new ImmediateSqliteDialect({ database: conn }), dataVersion: memoForTurn(() => Number(version.get())) };
}

/**
 * lower() as PostgreSQL and MySQL compute it, letter by letter, so the case-insensitive operators
 * match the same rows on every dialect: JavaScript's toLowerCase() turns `İ` into `i` plus a combining
 * dot and a word-final `Σ` into `ς`, where both databases give `i` and `σ` (`$eqi=istanbul` missed
 * `İSTANBUL` on SQLite only).
 */
function letterLower(v: string): string {
  return v.replace(/[\u0130\u03a3]/g, (c) => (c === '\u0130' ? 'i' : '\u03c3')).toLowerCase();
}

async function postgres(cfg: DatabaseConfig): Promise<Opened> {
  const pg = await import('pg');
  const types = pg.default.types;
  // dates and times come back as the strings stored, not as local-time Date objects
  types.setTypeParser(1082, (v: string) => v); // date
  types.setTypeParser(1083, (v: string) => v); // time
  // timestamptz as text too: formatDatetime turns it into the ISO form without a Date per value
  types.setTypeParser(1184, (v: string) => v);
  const connection = {
    connectionString: cfg.url,
    host: cfg.host,
    port: cfg.port,
    database: cfg.database,
    user: cfg.user,
    password: cfg.password,
    ssl: cfg.ssl ? { rejectUnauthorized: false } : undefined,
    options: cfg.schema ? `-c search_path=${cfg.schema}` : undefined,
  };
  const pool = new pg.default.Pool({ ...connection, max: cfg.poolMax ?? 10, statement_timeout: cfg.statementTimeout || undefined });
  // the server ends a read past its bound (the read connections run nothing but content reads)
  const readBound = readTimeout(cfg) || undefined;
  // a PostgreSQL backend runs one statement at a time: as many as this machine has cores (at least two,
  // at most the pool's size), so reads use the server's cores as a pool's connections would
  const reads = new PipelinedReads(
    () => new pg.default.Client({ ...connection, pipeline: true, application_name: PIPELINED_READS_NAME, statement_timeout: readBound }),
    Math.min(cfg.poolMax ?? 10, Math.max(2, availableParallelism())),
    (err) => console.error(`folio: a pipelined PostgreSQL read connection failed and will be reopened: ${err.message}`),
    { ...READ_CONNECTION_LIMITS, prepared: cfg.preparedStatements ?? true },
  );
  // an idle client losing its connection (server restart, terminated backend) must not crash the
  // process: the pool drops it and opens a new one on demand. An operator still needs to see it.
  pool.on('error', (err) => console.error(`folio: an idle PostgreSQL connection failed and was dropped from the pool: ${err.message}`));
  const dialect = new PostgresDialect({ pool });
  // the configured bound reaches every pooled statement, writes included: one stopped is answered as a read is
  const checks = new PipelinedReads(
    () => new pg.default.Client({ ...connection, pipeline: true, application_name: PIPELINED_CHECKS_NAME, statement_timeout: readBound }),
    1,
    (err) => console.error(`folio: the pipelined PostgreSQL connection for caller checks failed and will be reopened: ${err.message}`),
    { ...READ_CONNECTION_LIMITS, prepared: cfg.preparedStatements ?? true },
  );
  const checkDialect = new PostgresDialect({ pool: checks.pool() as unknown as PostgresDialectConfig['pool'] });
  return {
    dialect: cfg.statementTimeout ? timeoutsAnswered(dialect, cfg.statementTimeout) : dialect,
    readDialect: new PostgresDialect({ pool: reads.pool() as unknown as PostgresDialectConfig['pool'] }),
    // a caller check stopped at its bound (a lock held on the tokens' table, say) is a 503 as a content read's is, not a 500
    checkDialect: readBound ? timeoutsAnswered(checkDialect, readBound) : checkDialect,
  };
}

/**
 * mysql2 reads a DOUBLE's text digit by digit, which can miss the nearest double in the last place
 * (a float stored as 92.34230171423405 was answered as 92.34230171423404); Number() of the server's
 * text is exact, so a float reads back as written and as SQLite and PostgreSQL answer it.
 */
const exactDoubles: TypeCast = (field, next) => {
  if (field.type !== 'DOUBLE') return next();
  const text = field.string('ascii');
  return text === null ? null : Number(text);
};

async function mysql(cfg: DatabaseConfig): Promise<Opened> {
  const m = await import('mysql2');
  const common = {
    dateStrings: true as const,
    supportBigNumbers: true,
    bigNumberStrings: true,
    timezone: 'Z',
    charset: 'utf8mb4_bin',
    connectionLimit: cfg.poolMax ?? 10,
    typeCast: exactDoubles,
  };
  const createPool = () =>
    cfg.url
      ? m.createPool({ uri: cfg.url, ...common })
      : m.createPool({ host: cfg.host, port: cfg.port, database: cfg.database, user: cfg.user, password: cfg.password, ...common });
  const pool = createPool();
  const dialect = new MysqlDialect({ pool });
  let server: { v: unknown; mode: unknown; step: unknown };
  try {
    server = await new Promise<{ v: unknown; mode: unknown; step: unknown }>((resolve, reject) =>
      pool.query('select version() as v, @@innodb_autoinc_lock_mode as mode, @@auto_increment_increment as step', (err: Error | null, rows: unknown) =>
        err ? reject(err) : resolve((rows as { v: unknown; mode: unknown; step: unknown }[])[0]!),
      ),
    );
  } catch (e) {
    // a server that can't be reached leaves no pool behind to keep the process alive
    pool.end(() => {});
    throw e;
  }
  // reads outside transactions have a pool of their own: writes waiting for a row lock each hold one
  // of the writes' connections, and a burst of them on one document would keep every read waiting
  const reads = new MysqlDialect({ pool: createPool() });
  // modes 0 and 1 give the rows of one multi-row INSERT consecutive ids; 2 (MySQL 8's default) may interleave them
  const capabilities = { consecutiveIds: Number(server.mode) <= 1 ? Number(server.step) : null };
  const bound = readTimeout(cfg);
  if (bound === 0) return { dialect, capabilities, readDialect: reads };
  // each read's SELECT carries its bound (statement-timeout.ts)
  return { dialect, capabilities, readDialect: boundedSelects(reads, String(server.v).includes('MariaDB') ? 'mariadb' : 'mysql', bound) };
}

/** the bound of a content read's statements: the configured one, else READ_TIMEOUT_MS */
const readTimeout = (cfg: DatabaseConfig): number => cfg.statementTimeout ?? READ_TIMEOUT_MS;

/**
 * PostgreSQL's snapshot (`xmin:xmax:in-progress ids`) moves when any transaction in the cluster takes a
 * transaction id (every write does) or ends, and never otherwise: equal snapshots before and after a
 * read mean no commit anywhere in between, whichever process made it. It also moves for writes to
 * other databases of the server, which only costs a reuse.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function postgresSnapshot(db: Kysely<any>): () => Promise<string> {
  // a select node (not raw SQL), which the statement counter doesn't take for a write
  const query = db.selectNoFrom(sql<string>`txid_current_snapshot()::text`.as('s'));
  return sharedFreshRead(async () => ((await query.executeTakeFirstOrThrow()) as { s: string }).s);
}

const DIALECTS: Record<DialectName, Dialect> = { sqlite: sqliteDialect, postgres: postgresDialect, mysql: mysqlDialect };

export async function connect(cfg: DatabaseConfig, plugins: readonly KyselyPlugin[] = []): Promise<Database> {
  const counter = new StatementCounter();
  const opened = cfg.client === 'sqlite' ? await sqlite(cfg) : cfg.client === 'postgres' ? await postgres(cfg) : await mysql(cfg);
  let partitions: ReadonlyMap<string, Partition> | undefined;
  const dialect = onTransactionEnd(recordReadTables(opened.dialect), () => counter.writes++);
  const db = new Kysely<any>({ dialect, plugins: [counter, ...plugins] }); // eslint-disable-line @typescript-eslint/no-explicit-any
  // content reads (recordReads) go where the dialect sends reads outside transactions
  const readDb = opened.readDialect ? new Kysely<any>({ dialect: recordReadTables(opened.readDialect), plugins: [counter, ...plugins] }) : db; // eslint-disable-line @typescript-eslint/no-explicit-any
  const checksDb = opened.checkDialect ? new Kysely<any>({ dialect: opened.checkDialect, plugins: [counter, ...plugins] }) : readDb; // eslint-disable-line @typescript-eslint/no-explicit-any
  const versionsQuery = checksDb.selectFrom(VERSIONS_TABLE).select(['table_name', sql<number>`-1`.as('bucket'), 'version']);
  // the counters and the bucket writes past the given versions in one statement: one snapshot, so the
  // writes read are all those up to the counters read
  const tableVersions = async (since: ReadonlyMap<string, number>): Promise<TableVersions> => {
    // only bucketed tables have bucket writes to read
    const asked = [...since].filter(([t]) => partitions?.has(t));
    const query =
      asked.length === 0
        ? versionsQuery
        : versionsQuery.unionAll(
            checksDb
              .selectFrom(BUCKETS_TABLE)
              .select(['table_name', 'bucket', 'version'])
              .where((eb) => eb.or(asked.map(([t, v]) => eb.and([eb('table_name', '=', t), eb('version', '>', v)])))),
          );
    const versions = new Map<string, number>();
    const changes: BucketChange[] = [];
    for (const r of await query.execute()) {
      const table = String(r.table_name);
      const bucket = Number(r.bucket);
      if (bucket < 0) versions.set(table, Number(r.version));
      else changes.push({ table, bucket, version: Number(r.version) });
    }
    return { versions, changes };
  };
  const dataVersion = opened.dataVersion;
  let seen = dataVersion ? dataVersion() : 0;
  const local = (): number => {
    if (dataVersion) {
      const v = dataVersion();
      if (v !== seen) {
        seen = v;
        counter.writes++;
      }
    }
    return counter.writes;
  };
  const otherWriters = cfg.client === 'postgres' ? postgresSnapshot(checksDb) : undefined;
  const database: Database = {
    identity: {},
    db,
    reads: checksDb,
    dialect: opened.capabilities ? { ...DIALECTS[cfg.client], ...opened.capabilities } : DIALECTS[cfg.client],
    statements: () => counter.count,
    changeMark: otherWriters ? async () => `${local()}:${await otherWriters()}` : async () => String(local()),
    seesOtherWriters: dataVersion !== undefined || otherWriters !== undefined,
    tableVersions,
    startTableVersions: (tables) => {
      partitions = new Map(tables.flatMap((t) => (t.partition ? [[t.name, t.partition] as const] : [])));
    },
    tableVersionsActive: () => partitions !== undefined,
    async recordReads<T>(read: (recording: Database) => Promise<T>): Promise<{ value: T; reads: RecordedReads }> {
      const recorder = new ReadRecorder(partitions ?? new Map());
      try {
        const value = await read({ ...database, db: readDb.withPlugin(recorder), recorder });
        return { value, reads: recorder };
      } catch (e) {
        if (isStatementTimeout(e)) throw new StatementTimeoutError(readTimeout(cfg));
        throw e;
      }
    },
    close: async () => {
      if (checksDb !== readDb) await checksDb.destroy();
      if (readDb !== db) await readDb.destroy();
      await db.destroy();
    },
  };
  return database;
}
