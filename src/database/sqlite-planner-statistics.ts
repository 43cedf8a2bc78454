// Planner statistics for a long-lived SQLite connection, without per-value samples.
//
// better-sqlite3 builds SQLite with SQLITE_ENABLE_STAT4. Once sqlite_stat4 holds samples for an index,
// a statement whose bound parameters constrain that index is marked expired whenever they are bound,
// so SQLite compiles it again on every run: Folio binds every value, and a findOne by documentId took
// 17.5 µs where the same statement with the values written into its text took 4.2 µs (4.9 µs with
// the samples gone). ANALYZE with an analysis limit keeps sqlite_stat1's row estimates and takes no
// samples; samples left by an earlier ANALYZE (Folio's own before this, or a tool's) are dropped.

import type BetterSqlite from 'better-sqlite3';

/** rows ANALYZE reads per index: SQLite's advice for PRAGMA optimize on long-lived connections is 100–1000 */
const ANALYSIS_LIMIT = 1000;

/**
 * How often the row estimates are brought up to date while the server runs. A database filled after the
 * server started on it (the first import, a project's first weeks) kept the estimates of its empty
 * tables until a restart: a filter six relations deep took 57 s where fresh estimates gave 0.12 s.
 * PRAGMA optimize analyzes only the tables never analyzed or grown or shrunk 25-fold; otherwise it costs ~4 µs.
 */
export const STATISTICS_REFRESH_MS = 60_000;

export function keepPlannerStatistics(conn: BetterSqlite.Database, refreshMs = STATISTICS_REFRESH_MS): void {
  conn.pragma(`analysis_limit = ${ANALYSIS_LIMIT}`);
  const sampled = conn.prepare("select 1 from sqlite_schema where type = 'table' and name = 'sqlite_stat4'").get() !== undefined;
  if (sampled && conn.prepare('select 1 from sqlite_stat4 limit 1').get() !== undefined) {
    conn.exec('delete from sqlite_stat4');
    // the samples already loaded stay in the schema's memory until the statistics are read again
    conn.exec('analyze sqlite_schema');
  }
  // keep sqlite_stat1 current (SQLite's advice for long-lived connections); 0x10000: every table
  conn.pragma('optimize = 0x10002');
  const refresh = setInterval(() => {
    if (!conn.open) clearInterval(refresh);
    // not inside a transaction under way: the analysis would be undone with it, or commit with it
    else if (!conn.inTransaction) refreshNow(conn);
  }, refreshMs);
  refresh.unref();
}

/**
 * One refresh, given up at once when another connection (a worker, another server, a tool) holds the
 * write lock ANALYZE needs: the next one comes soon enough, and waiting out the busy timeout would
 * stop the server meanwhile. Thrown in a timer, the lock's error would end the process.
 */
function refreshNow(conn: BetterSqlite.Database): void {
  const busyTimeout = Number(conn.pragma('busy_timeout', { simple: true }));
  try {
    conn.pragma('busy_timeout = 0');
    conn.pragma('optimize = 0x10002');
  } catch {
    // busy, or the file read-only: left for the next refresh
  } finally {
    conn.pragma(`busy_timeout = ${busyTimeout}`);
  }
}
