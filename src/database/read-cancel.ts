// A content read whose client went away stops running in the database: without this, a slow filter
// kept a PostgreSQL backend or a MySQL thread busy to its statement bound (30 s by default) after
// nobody waited for its answer any more. The read's statements are tagged with the request's signal on
// their way down (a per-read connection provider, recordReads in connect.ts); the dialect's read
// connections register each running statement's way to stop it, which the signal calls. SQLite needs
// none: a statement runs to its end on the calling thread, before the disconnect can even be seen.
// Writes are never tagged: a write the client sent commits or rolls back as a whole.
import type { CompiledQuery, DatabaseConnection, Dialect as KyselyDialect, QueryResult } from 'kysely';
import { withExecute } from './statement-timeout.js';
import { wrapDriver } from './wrap-driver.js';

/** the statements of one read in flight, stopped together when its client disconnects */
export class ReadScope {
  private readonly stops = new Set<() => void>();
  constructor(readonly signal: AbortSignal) {
    signal.addEventListener('abort', () => {
      for (const stop of this.stops) stop();
    });
  }

  /** `stop` is called if the read is abandoned before the returned function is */
  running(stop: () => void): () => void {
    if (this.signal.aborted) {
      stop();
      return () => {};
    }
    this.stops.add(stop);
    return () => this.stops.delete(stop);
  }
}

/** compiled statement → the read it belongs to (read where it is still the statement tagged, above any wrapper rewriting its text) */
const scopes = new WeakMap<CompiledQuery, ReadScope>();

export const scopeOf = (q: CompiledQuery): ReadScope | undefined => scopes.get(q);

/** `conn` with every statement it runs tagged as one of `scope`'s */
export function tagged(conn: DatabaseConnection, scope: ReadScope): DatabaseConnection {
  return withExecute(conn, (inner) => (q) => {
    // a statement of an abandoned read that hasn't started (it waited for a connection) never does
    if (scope.signal.aborted) return Promise.reject(new Error('the client of this read disconnected'));
    const copy = { ...q };
    scopes.set(copy, scope);
    return inner.executeQuery(copy);
  });
}

/** where a MySQL connection's thread id is kept, on the driver's own connection object (proxies pass it through) */
const SESSION = Symbol('folio session id');

/** notes the connection's session (thread) id, asked once when the driver opens it */
export async function noteSession(conn: DatabaseConnection, query: string): Promise<void> {
  const r: QueryResult<{ id: unknown }> = await conn.executeQuery({ sql: query, parameters: [] } as unknown as CompiledQuery);
  (conn as unknown as Record<symbol, unknown>)[SESSION] = Number(r.rows[0]?.id);
}

const sessionOf = (conn: DatabaseConnection): number | undefined => {
  const id = (conn as unknown as Record<symbol, unknown>)[SESSION];
  return typeof id === 'number' && Number.isSafeInteger(id) ? id : undefined;
};

const NO_OP = { sql: 'do 0', parameters: [] } as unknown as CompiledQuery;
const ignore = (): void => {};

/**
 * A connection of its own for the kills: connections held by abandoned reads go back to the pool only
 * once their kill is answered, so a kill waiting for a pooled connection could wait for ever.
 */
export interface Aside {
  run(sql: string): Promise<void>;
  end(): Promise<void>;
}

/**
 * The MySQL dialect with a read of a disconnected client stopped by `KILL QUERY <thread>`, sent by
 * `aside` on another connection. KILL QUERY names a connection, not a statement: one landing after the
 * statement ended would stop whatever that connection runs next. So the connection goes back to the
 * pool only once the kill has been answered, and if its statement ended without being interrupted, a
 * no-op statement (`do 0`) takes any kill that arrived late before another read gets the connection.
 */
export function killQueryOnAbandon(inner: KyselyDialect, kill: (session: number) => string, aside: Aside): KyselyDialect {
  const killing = new WeakMap<DatabaseConnection, Promise<void>>();
  const execute =
    (conn: DatabaseConnection, self: DatabaseConnection) =>
    async <R>(q: CompiledQuery): Promise<QueryResult<R>> => {
      const scope = scopes.get(q);
      const session = scope && sessionOf(conn);
      if (!scope || session === undefined) return conn.executeQuery<R>(q);
      const sentKill: { sent?: Promise<void> } = {};
      const done = scope.running(() => {
        const sent = aside.run(kill(session)).catch(ignore);
        sentKill.sent = sent;
        killing.set(self, sent);
      });
      try {
        return await conn.executeQuery<R>(q);
      } finally {
        done();
        // interrupted (ER_QUERY_INTERRUPTED) or not, `do 0` runs once the kill is answered: a kill spent on
        // the statement leaves nothing for it, a late one is spent on it
        const k = sentKill.sent;
        if (k)
          killing.set(
            self,
            k.then(() => conn.executeQuery(NO_OP).then(ignore, ignore)),
          );
      }
    };
  return wrapDriver(inner, (driver) => ({
    acquireConnection: async () => withExecute(await driver.acquireConnection(), execute),
    releaseConnection: async (c: DatabaseConnection) => {
      await killing.get(c);
      killing.delete(c);
      return driver.releaseConnection(c);
    },
    // the pool is the main dialect's, which ends it
    destroy: () => aside.end(),
  }));
}

/**
 * PostgreSQL's pipelined read connections with each tagged statement handed to the pipeline as its
 * read's (`inScope`): PostgresConnection passes a statement to the pool's client before its first await,
 * so the hand-over around the call reaches exactly that statement.
 */
export function pipelinedInScope(inner: KyselyDialect, inScope: <T>(scope: ReadScope, send: () => T) => T): KyselyDialect {
  const execute =
    (conn: DatabaseConnection) =>
    <R>(q: CompiledQuery): Promise<QueryResult<R>> => {
      const scope = scopes.get(q);
      return scope ? inScope(scope, () => conn.executeQuery<R>(q)) : conn.executeQuery<R>(q);
    };
  return wrapDriver(inner, (driver) => ({
    acquireConnection: async () => withExecute(await driver.acquireConnection(), execute),
  }));
}
