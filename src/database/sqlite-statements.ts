// Prepared-statement reuse and fast row building for better-sqlite3.
import type BetterSqlite from 'better-sqlite3';
import { rowBuilder, type Row } from './row-builder.js';

/** What Kysely's SQLite driver calls on a prepared statement. */
interface DriverStatement {
  readonly reader: boolean;
  all(params: readonly unknown[]): unknown[];
  run(params: readonly unknown[]): BetterSqlite.RunResult;
  iterate(params: readonly unknown[]): IterableIterator<unknown>;
}

const MAX_SAFE = Number.MAX_SAFE_INTEGER;
const MAX_SAFE_BIG = BigInt(MAX_SAFE);

/** true when a value read as a double may have been an integer beyond 2^53, which a double rounds */
function holdsUnsafeNumber(rows: readonly unknown[][]): boolean {
  for (const values of rows) {
    for (const v of values) if (typeof v === 'number' && (v > MAX_SAFE || v < -MAX_SAFE)) return true;
  }
  return false;
}

/**
 * Integers read as BigInt are turned into numbers when a number holds them exactly, or else into their
 * decimal digits: a biginteger beyond 2^53 must not be rounded.
 */
function exactIntegers(values: unknown[]): unknown[] {
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (typeof v === 'bigint') values[i] = v <= MAX_SAFE_BIG && v >= -MAX_SAFE_BIG ? Number(v) : v.toString();
  }
  return values;
}

/**
 * A read-only statement reads integers as doubles: a BigInt for each (safeIntegers mode) cost a quarter
 * of a wide result's reading. A result with a number beyond 2^53 is read again at once with BigInts,
 * and those beyond become their digits; the second read is a read like the first, later by no more
 * than the time it takes (the caller reads its version marks around both). A statement that writes
 * (`… returning`) must run once, so it reads BigInts from the start.
 */
function wrapReader(stmt: BetterSqlite.Statement<unknown[]>): DriverStatement {
  stmt.raw(true);
  const readOnly = stmt.readonly;
  if (!readOnly) stmt.safeIntegers(true);
  let width = -1;
  let build: (values: unknown[]) => Row = () => ({});
  // SQLite re-prepares a statement when the schema changes (another process may add a column),
  // and a `select *` then returns more values: rebuild the shape when the width moves
  const shaped = (values: unknown[]): unknown[] => {
    if (values.length !== width) {
      width = values.length;
      build = rowBuilder(stmt.columns().map((c) => c.name));
    }
    return values;
  };
  const exactly = <T>(read: () => T): T => {
    stmt.safeIntegers(true);
    try {
      return read();
    } finally {
      if (readOnly) stmt.safeIntegers(false);
    }
  };
  const exactRows = (params: readonly unknown[]): unknown[][] => (stmt.all(...params) as unknown[][]).map(exactIntegers);
  return {
    reader: true,
    all: (params) => {
      let rows = readOnly ? (stmt.all(...params) as unknown[][]) : exactRows(params);
      if (readOnly && holdsUnsafeNumber(rows)) rows = exactly(() => exactRows(params));
      if (rows.length > 0) shaped(rows[0]!);
      const out = new Array<Row>(rows.length);
      for (let i = 0; i < rows.length; i++) out[i] = build(rows[i]!);
      return out;
    },
    run: (params) => stmt.run(...params),
    // an iteration cannot be read again from its start: it reads BigInts throughout
    iterate: function* (params) {
      stmt.safeIntegers(true);
      try {
        for (const values of stmt.iterate(...params) as IterableIterator<unknown[]>) yield build(shaped(exactIntegers(values)));
      } finally {
        if (readOnly) stmt.safeIntegers(false);
      }
    },
  };
}

/**
 * Kysely prepares every statement it runs; preparing costs more than running a small query, and the
 * same SQL text recurs for every request of one shape (values are parameters), so statements are
 * reused. SQLite re-prepares a cached statement by itself when the schema changes; schema changes
 * made here also empty the cache.
 */
const DDL = /^\s*(create|alter|drop)\s/i;

export function reusePreparedStatements(conn: BetterSqlite.Database): void {
  const prepare = conn.prepare.bind(conn) as (sql: string) => BetterSqlite.Statement<unknown[]>;
  const cache = new Map<string, DriverStatement>();
  (conn as { prepare: (sql: string) => unknown }).prepare = (text: string) => {
    let stmt = cache.get(text);
    if (stmt === undefined) {
      if (cache.size >= 1000 || DDL.test(text)) cache.clear();
      const raw = prepare(text);
      stmt = raw.reader ? wrapReader(raw) : plain(raw);
      cache.set(text, stmt);
      if (process.env['FOLIO_DEBUG_SQL']) console.error(`[sql] ${text}`);
    }
    return stmt;
  };
}

function plain(stmt: BetterSqlite.Statement<unknown[]>): DriverStatement {
  return {
    reader: false,
    all: (params) => stmt.all(...params),
    run: (params) => stmt.run(...params),
    iterate: (params) => stmt.iterate(...params),
  };
}
