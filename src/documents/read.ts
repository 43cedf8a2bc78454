// Document reads: a page of documents (or one) with their populated attributes, media files
// presented as the upload provider hands them out (a private bucket's URLs signed).
import type { Database } from '../database/dialect.js';
import type { FindQuery, PopulateMap } from '../query/ast.js';
import { findPage, scopeOf, type ReadContext } from '../query/sql/find.js';
import { populate, type Parent } from '../query/sql/populate.js';
import type { ReadScope } from '../query/sql/scope.js';
import { PopulateBudget } from '../query/sql/populate-budget.js';
import type { ContentType } from '../schema/types.js';
import { rowShape } from '../values/row-shape.js';

export type DocumentObject = Record<string, unknown>;

/** What happens to the media files a document read hands out: the upload plugin signs a private bucket's URLs. */
export interface MediaPresenter {
  /** changes the file objects in place (each object is given once, even when it appears under several documents) */
  present(files: readonly DocumentObject[]): Promise<void>;
}

/**
 * The presenter of each application, keyed by its database's identity: the one object every read of
 * that application reaches, whatever context or database copy it was handed (a per-read copy of the
 * context was what made an older lookup, keyed by the context itself, always miss).
 */
const presenters = new WeakMap<object, MediaPresenter>();

/** Sets how the application on `database` presents media in document reads (the upload plugin calls it once at start). */
export function presentMediaWith(database: Database, presenter: MediaPresenter): void {
  presenters.set(database.identity, presenter);
}

export async function readDocuments(ctx: ReadContext, type: ContentType, q: FindQuery, documentId?: string): Promise<{ data: DocumentObject[]; total: number | null }> {
  const shape = rowShape(type, q.fields);
  const { rows, total } = await findPage(ctx, type, q, shape.columns, documentId);
  const parents = rows.map((row) => ({ row, out: shape.build(row) }));
  await populateRead(ctx, type, parents, q.populate, scopeOf(ctx, type, q));
  return { data: parents.map((p) => p.out), total };
}

/**
 * Fills the read's objects with what `map` asks, within one read's populate budget (a new one, or the
 * read's own when it populates more besides), and presents the media files that reached: the one way
 * every read populates (document reads, the media library's).
 */
export async function populateRead(
  ctx: ReadContext,
  type: ContentType,
  parents: readonly Parent[],
  map: PopulateMap,
  scope: ReadScope,
  readBudget?: PopulateBudget,
): Promise<void> {
  if (map.size === 0 || parents.length === 0) return;
  const budget = readBudget ?? new PopulateBudget(ctx.lease);
  // the read's own rows count too: they are the first level's id list
  budget.take(parents.length);
  const files: DocumentObject[] = [];
  await populate({ ...ctx, budget, files }, type, parents, map, scope);
  const presenter = presenters.get(ctx.database.identity);
  if (presenter && files.length > 0) await presenter.present(files);
  for (const p of parents) budget.count(p.out);
  budget.settle();
}

export async function readDocument(ctx: ReadContext, type: ContentType, documentId: string, q: FindQuery): Promise<DocumentObject | null> {
  const one: FindQuery = { ...q, pagination: { mode: 'offset', start: 0, limit: 1, withCount: false } };
  const { data } = await readDocuments(ctx, type, one, documentId);
  return data[0] ?? null;
}
