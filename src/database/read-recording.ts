// Records which tables a read's statements name. Every connection Kysely gets is wrapped and notes
// the SQL of each read it runs under that query's id; a read that wants to know runs its queries
// through a Kysely instance carrying a ReadRecorder plugin, which gets each result with the query's id
// and adds the tables that SQL names. (Not AsyncLocalStorage: on Node 20 its promise hooks slow every
// request of the process.)
import type {
  CompiledQuery,
  DatabaseConnection,
  Dialect as KyselyDialect,
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';
import { isRead, tablesReadBy } from './table-versions.js';
import { wrapDriver } from './wrap-driver.js';

/** query id → the SQL it ran, for reads (a compiled statement reused by many requests keeps one id and one text) */
const readSql = new WeakMap<object, string>();

/** Collects the tables named by the reads of the Kysely instance it is added to. */
export class ReadRecorder implements KyselyPlugin {
  readonly tables = new Set<string>();

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const text = readSql.get(args.queryId);
    if (text !== undefined) for (const t of tablesReadBy(text)) this.tables.add(t);
    return args.result;
  }
}

function record(cq: CompiledQuery): void {
  if (isRead(cq.query, cq.sql)) readSql.set(cq.queryId, cq.sql);
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

/** `inner` with every connection noting its reads as above */
export function recordReadTables(inner: KyselyDialect): KyselyDialect {
  const wrapped = new WeakMap<DatabaseConnection, RecordingConnection>();
  const wrap = (c: DatabaseConnection): RecordingConnection => {
    let w = wrapped.get(c);
    if (!w) wrapped.set(c, (w = new RecordingConnection(c)));
    return w;
  };
  return wrapDriver(inner, (driver) => ({
    acquireConnection: async () => wrap(await driver.acquireConnection()),
    releaseConnection: (c: DatabaseConnection) => driver.releaseConnection(c instanceof RecordingConnection ? c.inner : c),
  }));
}
