// Records which tables a read's statements name: every connection Kysely gets is wrapped, and while a
// recording is active (AsyncLocalStorage, so concurrent requests keep theirs apart) each SELECT's
// tables are added to it. This is how a cached body learns what it depends on.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { CompiledQuery, DatabaseConnection, Dialect as KyselyDialect, QueryResult } from 'kysely';
import { isRead, tablesReadBy } from './table-versions.js';

/** the tables the reads of the current recording named */
export const readRecording = new AsyncLocalStorage<Set<string>>();

function record(cq: CompiledQuery): void {
  const recording = readRecording.getStore();
  if (recording && isRead(cq.query, cq.sql)) for (const t of tablesReadBy(cq.sql)) recording.add(t);
}

class RecordingConnection implements DatabaseConnection {
  constructor(readonly inner: DatabaseConnection) {}

  executeQuery<R>(cq: CompiledQuery): Promise<QueryResult<R>> {
    record(cq);
    return this.inner.executeQuery<R>(cq);
  }

  streamQuery<R>(cq: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    record(cq);
    return this.inner.streamQuery<R>(cq, chunkSize);
  }
}

/** `inner` with every connection recording its reads as above */
export function recordReadTables(inner: KyselyDialect): KyselyDialect {
  return {
    createAdapter: () => inner.createAdapter(),
    createIntrospector: (db) => inner.createIntrospector(db),
    createQueryCompiler: () => inner.createQueryCompiler(),
    createDriver: () => {
      const driver = inner.createDriver();
      const wrapped = new WeakMap<DatabaseConnection, RecordingConnection>();
      const wrap = (c: DatabaseConnection): RecordingConnection => {
        let w = wrapped.get(c);
        if (!w) wrapped.set(c, (w = new RecordingConnection(c)));
        return w;
      };
      const unwrap = (c: DatabaseConnection): DatabaseConnection => (c instanceof RecordingConnection ? c.inner : c);
      return new Proxy(driver, {
        get(target, key) {
          if (key === 'acquireConnection') return async () => wrap(await target.acquireConnection());
          if (key === 'releaseConnection') return (c: DatabaseConnection) => target.releaseConnection(unwrap(c));
          const value = Reflect.get(target, key) as unknown;
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
    },
  };
}
