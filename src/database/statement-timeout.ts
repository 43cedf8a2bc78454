// A content read's statements run for at most a bound the database itself enforces: a filter a client
// can write within the query limits (a `$containsi` over a large table through a few relations) may
// take minutes, and a statement keeps running on the server whether or not anyone still waits for it.
// SQLite has no such bound: better-sqlite3 runs a statement to its end on the calling thread and
// offers neither sqlite3_interrupt nor a progress handler.
import type { CompiledQuery, DatabaseConnection, Dialect as KyselyDialect, QueryResult } from 'kysely';
import { StatementTimeoutError } from '../errors.js';
import { errorCode, errorNumber } from './driver-error.js';
import { wrapDriver } from './wrap-driver.js';

/** a content read's statements' bound when config/database sets none */
export const READ_TIMEOUT_MS = 30_000;

/**
 * The driver error of a statement the server stopped at its bound: PostgreSQL's query_canceled,
 * MariaDB's max_statement_time, MySQL's max_execution_time.
 */
export function isStatementTimeout(e: unknown): boolean {
  return errorCode(e) === '57014' || errorNumber(e) === 1969 || errorNumber(e) === 3024;
}

/** the server's way of bounding one SELECT: MariaDB sets a variable for the statement, MySQL takes a hint */
function bounded(flavour: 'mariadb' | 'mysql', ms: number, text: string): string {
  if (flavour === 'mariadb') return `set statement max_statement_time=${ms / 1000} for ${text}`;
  return text.replace(/^\s*select\b/i, `select /*+ MAX_EXECUTION_TIME(${ms}) */`);
}

const READ = /^\s*(?:select|with|\()/i;
const BEGIN = /^\s*(?:begin|start transaction)\b/i;
const END = /^\s*(?:commit|rollback)\b/i;

type Execute = <R>(q: CompiledQuery) => Promise<QueryResult<R>>;

/** `conn` with its executeQuery replaced by the one `execute` makes from the original */
function withExecute(conn: DatabaseConnection, execute: (inner: DatabaseConnection, self: DatabaseConnection) => Execute): DatabaseConnection {
  // a proxy, not a copy: the driver releases a connection through a method it keys by a symbol
  const self: DatabaseConnection = new Proxy(conn, {
    get(target, key) {
      if (key === 'executeQuery') return execute(target, self);
      const value = Reflect.get(target, key) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return self;
}

/** The MySQL dialect with each read statement bounded to `ms` on the server; destroying it destroys the dialect given. */
export function boundedSelects(inner: KyselyDialect, flavour: 'mariadb' | 'mysql', ms: number): KyselyDialect {
  const execute =
    (conn: DatabaseConnection): Execute =>
    (q) =>
      conn.executeQuery(READ.test(q.sql) ? { ...q, sql: bounded(flavour, ms, q.sql) } : q);
  return wrapDriver(inner, (driver) => ({
    acquireConnection: async () => withExecute(await driver.acquireConnection(), execute),
  }));
}

/**
 * The dialect with a statement the server stopped at its bound `ms` thrown as StatementTimeoutError,
 * which is answered 503 as a content read past its bound is: a write (any statement inside a
 * transaction, or one that isn't a read) says so, and its transaction is rolled back by whoever
 * began it, so nothing of it stays.
 */
export function timeoutsAnswered(inner: KyselyDialect, ms: number): KyselyDialect {
  // Kysely begins and ends a transaction through whatever wraps this connection (read-recording.ts),
  // so the transaction's statements are watched here, where they pass, not at the driver's hooks
  const inTransaction = new WeakSet<DatabaseConnection>();
  const execute =
    (conn: DatabaseConnection, self: DatabaseConnection): Execute =>
    async (q) => {
      if (BEGIN.test(q.sql)) inTransaction.add(self);
      else if (END.test(q.sql)) inTransaction.delete(self);
      try {
        return await conn.executeQuery(q);
      } catch (e) {
        if (!isStatementTimeout(e)) throw e;
        // content reads have their own connections (readDialect): a select here is a lookup on the way
        throw new StatementTimeoutError(ms, inTransaction.has(self) || !READ.test(q.sql) ? 'write' : 'lookup');
      }
    };
  return wrapDriver(inner, (driver) => ({
    acquireConnection: async () => withExecute(await driver.acquireConnection(), execute),
  }));
}
