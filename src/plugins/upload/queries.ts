// Reads of the media library: the flat list, the paginated page, one file. Query parameters are
// parsed by the same parsers as content lists, against the `plugin::upload.file` model.
import type { PopulateBudget } from '../../query/sql/populate-budget.js';
import { parseSearch } from '../../query/parse/search.js';
import { sql, type SqlBool } from 'kysely';
import { PaginationError } from '../../errors.js';
import type { Pagination, PopulateMap, SortItem, Where } from '../../query/ast.js';
import type { ParseContext } from '../../query/parse/context.js';
import { parseFields } from '../../query/parse/fields.js';
import { parseFilters } from '../../query/parse/filters.js';
import { parsePagination } from '../../query/parse/pagination.js';
import { parsePopulate } from '../../query/parse/populate.js';
import { parseSort } from '../../query/parse/sort.js';
import { populateRead } from '../../documents/read.js';
import { orderTerms, searchCondition, whereContext, type ReadContext } from '../../query/sql/find.js';
import { compileWhere } from '../../query/sql/where.js';
import { rowShape } from '../../values/row-shape.js';
import type { ContentType } from '../../schema/types.js';
import type { FileObject } from './file-row.js';
import { parseRelated, splitFilePopulate, type RelatedSpec } from '../../query/parse/file-related.js';

export interface FileQuery {
  readonly where: Where | null;
  readonly sort: readonly SortItem[];
  readonly fields: readonly string[] | null;
  /** `populate=related`: add the entries each file is linked to (null: not asked) */
  readonly related: RelatedSpec | null;
  /** the other attributes asked for: relations and media an upload extension adds */
  readonly populate: PopulateMap;
  /** `_q`: searched as in a content list (Strapi's file lists take it too) */
  readonly search: string | null;
}

export function parseFileQuery(ctx: ParseContext, type: ContentType, query: Record<string, unknown>): FileQuery {
  // `rest.strictParams` is the core controllers' setting: Strapi 5.54's upload controller validates its
  // query without it, so an unknown parameter is ignored here whatever config/api says
  const where = parseFilters(ctx, type, query['filters']);
  const sort = parseSort(ctx, type, query['sort']);
  const fields = parseFields(ctx, type, query['fields']);
  const search = parseSearch(query['_q']);
  return { where, sort, fields, ...parseFilePopulate(ctx, type, query['populate']), search };
}

/**
 * A file read by id: Strapi 5.54 checks its filters, sort and fields as a list's (a bad key is the same
 * 400) but honours only populate, and lets every other parameter pass
 */
export function parseFileReadQuery(ctx: ParseContext, type: ContentType, query: Record<string, unknown>): FilePopulate {
  parseFilters(ctx, type, query['filters']);
  parseSort(ctx, type, query['sort']);
  parseFields(ctx, type, query['fields']);
  return parseFilePopulate(ctx, type, query['populate']);
}

export interface FilePopulate {
  readonly related: RelatedSpec | null;
  readonly populate: PopulateMap;
}

/**
 * What a files `populate` asks: `related`, read Folio's way, and the relations and media an upload
 * extension adds (`bot`, `company`…), populated as in a content read; other keys are refused.
 */
export function parseFilePopulate(ctx: ParseContext, type: ContentType, raw: unknown): FilePopulate {
  const split = splitFilePopulate(raw);
  const populate = parsePopulate(ctx, type, split.rest);
  return { related: split.related === undefined ? null : parseRelated(ctx, split.related), populate };
}

export function parseFilePage(ctx: ParseContext, query: Record<string, unknown>): Pagination {
  return parsePagination(ctx.rest, query);
}

function offset(raw: unknown, key: 'start' | 'limit'): number | null {
  if (raw === undefined) return null;
  const s = typeof raw === 'string' ? raw.trim() : '';
  if (!/^-?\d+$/.test(s)) throw new PaginationError(`Invalid ${key} parameter. Expected an integer`);
  const n = Number(s);
  if (!Number.isSafeInteger(n)) throw new PaginationError(`Invalid ${key} parameter. Expected an integer between ${-Number.MAX_SAFE_INTEGER} and ${Number.MAX_SAFE_INTEGER}`);
  if (key === 'limit' && n === -1) return null;
  if (n < 0) throw new PaginationError(`Invalid ${key} parameter. Expected a non-negative integer`);
  return n;
}

/** The flat list's root-level `start`/`limit` (the pagination object is ignored there, as Strapi does). */
export function parseFlatRange(query: Record<string, unknown>): { start: number; limit: number | null } {
  return { start: offset(query['start'], 'start') ?? 0, limit: offset(query['limit'], 'limit') };
}

function base(ctx: ReadContext, type: ContentType, q: FileQuery) {
  const w = whereContext(ctx, { status: 'published', locale: ctx.defaultLocale });
  const conds = [q.where ? compileWhere(w, type, 'r', q.where) : sql<SqlBool>`1 = 1`];
  if (q.search !== null) conds.push(searchCondition(type, 'r', q.search, w));
  return { w, cond: sql<SqlBool>`${sql.join(conds, sql` and `)}` };
}

/** Files matching the query, in order, from `start`, at most `limit` (null = all). */
export async function findFiles(ctx: ReadContext, type: ContentType, q: FileQuery, start: number, limit: number | null): Promise<FileObject[]> {
  const shape = rowShape(type, q.fields);
  const { w, cond } = base(ctx, type, q);
  const cols = ['id', 'document_id', ...shape.columns].map((c) => `r.${c}`);
  let sel = ctx.database.db.selectFrom(`${type.table} as r`).select(cols).where(cond);
  for (const term of orderTerms(w, type, 'r', q.sort)) sel = sel.orderBy(term);
  if (limit !== null) sel = sel.limit(limit);
  if (start > 0) sel = limit === null ? sel.limit(Number.MAX_SAFE_INTEGER).offset(start) : sel.offset(start);
  const rows = (await sel.execute()) as Record<string, unknown>[];
  return rows.map((r) => shape.build(r));
}

export async function countFiles(ctx: ReadContext, type: ContentType, q: FileQuery): Promise<number> {
  const { cond } = base(ctx, type, q);
  const row = await ctx.database.db
    .selectFrom(`${type.table} as r`)
    .select(sql<number>`count(*)`.as('c'))
    .where(cond)
    .executeTakeFirst();
  return Number((row as { c: unknown } | undefined)?.c ?? 0);
}

/** Fills each file object with the extension attributes `map` asks for, as a content read populates them. */
export async function populateFiles(ctx: ReadContext, type: ContentType, files: readonly FileObject[], map: PopulateMap, budget?: PopulateBudget): Promise<void> {
  const parents = files.map((out) => ({ row: { id: out['id'], document_id: out['documentId'] }, out }));
  await populateRead(ctx, type, parents, map, { status: 'published', locale: ctx.defaultLocale, publicationFilter: null }, budget);
}
