// Document reads: a page of documents (or one) with their populated attributes.
import type { FindQuery } from '../query/ast.js';
import { findPage, scopeOf, type ReadContext } from '../query/sql/find.js';
import { populate } from '../query/sql/populate.js';
import { PopulateBudget } from '../query/sql/populate-budget.js';
import type { ContentType } from '../schema/types.js';
import { rowShape } from './row-shape.js';

export type DocumentObject = Record<string, unknown>;

export async function readDocuments(ctx: ReadContext, type: ContentType, q: FindQuery, documentId?: string): Promise<{ data: DocumentObject[]; total: number | null }> {
  const shape = rowShape(type, q.fields);
  const { rows, total } = await findPage(ctx, type, q, shape.columns, documentId);
  const parents = rows.map((row) => ({ row, out: shape.build(row) }));
  if (q.populate.size > 0) {
    const budget = new PopulateBudget();
    // the page's own rows count too: they are the first level's id list
    budget.take(parents.length);
    await populate({ ...ctx, budget }, type, parents, q.populate, scopeOf(ctx, type, q));
    for (const p of parents) budget.count(p.out);
  }
  return { data: parents.map((p) => p.out), total };
}

export async function readDocument(ctx: ReadContext, type: ContentType, documentId: string, q: FindQuery): Promise<DocumentObject | null> {
  const one: FindQuery = { ...q, pagination: { mode: 'offset', start: 0, limit: 1, withCount: false } };
  const { data } = await readDocuments(ctx, type, one, documentId);
  return data[0] ?? null;
}
