// Counts the statements that read or write the data a request is about, leaving out the request's
// bookkeeping: the change mark (a statement naming no table) and the per-request values kept while the
// mark stands (tokens, roles and permissions, locales, settings, table counters). Those are read again
// whenever anything on the database server committed since the last request — under CI's parallel
// test files on one PostgreSQL server, on nearly every request, and not the same for each — and they
// never depend on the number of documents, which is what the "no N+1" comparisons measure.
import type { KyselyPlugin, OperationNode, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';

const BOOKKEEPING = new Set(['folio_api_tokens', 'up_permissions', 'up_roles', 'i18n_locale', 'folio_store', 'folio_table_versions', 'folio_table_buckets']);

function tablesOf(node: unknown, into: Set<string>): Set<string> {
  if (Array.isArray(node)) for (const n of node) tablesOf(n, into);
  else if (node !== null && typeof node === 'object') {
    const o = node as Partial<OperationNode> & { table?: { identifier?: { name?: unknown } } };
    if (o.kind === 'TableNode' && typeof o.table?.identifier?.name === 'string') into.add(o.table.identifier.name);
    for (const v of Object.values(node)) tablesOf(v, into);
  }
  return into;
}

function isBookkeeping(node: RootOperationNode): boolean {
  const tables = tablesOf(node, new Set());
  // a select naming no table is the change mark; raw SQL naming none is counted, not guessed at
  if (tables.size === 0) return node.kind === 'SelectQueryNode';
  return [...tables].every((t) => BOOKKEEPING.has(t));
}

export class StatementLog implements KyselyPlugin {
  /** statements run so far that are no bookkeeping */
  count = 0;
  // compiled statements are reused across requests under one query id: classified once
  private readonly kinds = new WeakMap<object, RootOperationNode | boolean>();

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    if (!this.kinds.has(args.queryId)) this.kinds.set(args.queryId, args.node);
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    let kind = this.kinds.get(args.queryId);
    if (kind !== undefined && typeof kind !== 'boolean') this.kinds.set(args.queryId, (kind = isBookkeeping(kind)));
    if (kind !== true) this.count++;
    return args.result;
  }
}
