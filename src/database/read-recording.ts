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
import { isRead, tableCountsReadBy } from './table-versions.js';
import { bucketOf, type Partition } from './table-buckets.js';
import { wrapDriver } from './wrap-driver.js';

/** query id → the SQL it ran, for reads (a compiled statement reused by many requests keeps one id and one text) */
const readSql = new WeakMap<object, string>();

/** What a read's statements named: tables read as a whole, and tables read only at some keys. */
export interface RecordedReads {
  /** tables some statement read without saying which keys it was limited to */
  readonly tables: ReadonlySet<string>;
  /** for the other tables read, the buckets (table-buckets.ts) of the keys their statements were limited to */
  readonly keys: ReadonlyMap<string, ReadonlySet<number>>;
}

/** Collects the tables named by the reads of the Kysely instance it is added to. */
export class ReadRecorder implements KyselyPlugin, RecordedReads {
  readonly tables = new Set<string>();
  readonly keys = new Map<string, Set<number>>();
  /** per compiled statement (its query id), the tables it was declared to read at keys only, and how many times it names each */
  private readonly declared = new WeakMap<object, Map<string, number>>();

  constructor(private readonly partitions: ReadonlyMap<string, Partition>) {}

  /**
   * Declares that the statement compiled as `queryId` reads `table` only where `column` is one of
   * `values` — before it runs, and again with more values once its rows are known, if the keys come
   * from them. Honoured when `column` is what the table is bucketed by and the statement names the
   * table `occurrences` times, each limited to those keys (a subquery naming it once more could read
   * any row); otherwise the table counts as read whole.
   */
  keyed(queryId: object, table: string, column: string, values: Iterable<unknown>, occurrences = 1): void {
    const p = this.partitions.get(table);
    if (p?.column !== column) return;
    let buckets = this.keys.get(table);
    if (!buckets) this.keys.set(table, (buckets = new Set()));
    for (const v of values) {
      const b = bucketOf(p.kind, v);
      if (b === null) {
        this.tables.add(table);
        return;
      }
      buckets.add(b);
    }
    let tables = this.declared.get(queryId);
    if (!tables) this.declared.set(queryId, (tables = new Map()));
    tables.set(table, occurrences);
  }

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const text = readSql.get(args.queryId);
    if (text === undefined) return args.result;
    const declared = this.declared.get(args.queryId);
    for (const [t, n] of tableCountsReadBy(text)) if (declared?.get(t) !== n) this.tables.add(t);
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
