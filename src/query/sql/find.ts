// Root reads of a content type: the page and its count (two statements, or one pass and a read by id).
// Everything (filters, status, locale, publication cohorts, sort, pagination) happens in SQL.
import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import type { FindQuery, SortItem } from '../ast.js';
import type { Database } from '../../database/dialect.js';
import type { Component, ContentType, Model } from '../../schema/types.js';
import { and, ref, statusCondition, type ReadScope } from './scope.js';
import { keyLiteral } from './key-literal.js';
import { windowed, windowKey } from './page-window.js';
import { runTemplate } from './statement-template.js';
import { publicationCondition } from './publication.js';
import { aliasCounter, compileWhere, type WhereContext } from './where.js';
import { relatedSortKey } from './sort-key.js';
import { inCodePointOrder } from './code-point-order.js';
import type { PopulateBudget } from './populate-budget.js';
import type { PopulateCosts } from './populate-cost.js';
import type { ReadLease } from '../heavy-reads.js';

export interface ReadContext {
  readonly model: Model;
  readonly database: Database;
  readonly defaultLocale: string;
  /** one request's allowance of populated rows (document reads set it) */
  readonly budget?: PopulateBudget;
  /** where Strapi puts the route's populated keys (populate-cost.ts); the document service's by default */
  readonly populateCosts?: PopulateCosts;
  /** the read's standing at the heavy-read gate (heavy-reads.ts), for reads answering a request */
  readonly lease?: ReadLease;
}

export type Row = Record<string, unknown>;

export function scopeOf(ctx: ReadContext, type: ContentType, q: Pick<FindQuery, 'status' | 'locale' | 'publicationFilter'>): ReadScope {
  const single = typeof q.locale === 'string' && q.locale !== '*';
  return {
    status: q.status,
    locale: single ? (q.locale as string) : ctx.defaultLocale,
    fixedLocale: single && type.localized,
    publicationFilter: q.publicationFilter,
  };
}

/**
 * `_q`, as Strapi 5 searches: the term anywhere in the row id, the document id, the locale and every
 * searchable text attribute, and, when the term reads as a number (lodash's toNumber: not NaN), in
 * every number attribute; numbers by their printed text (`_q=1` finds ids 1, 10, 21…). Case is
 * ignored everywhere. Private attributes are never searched (see the README's differences).
 */
export function searchCondition(type: ContentType, alias: string, q: string, w: WhereContext): Expression<SqlBool> {
  const pattern = `%${q.replace(/[!%_]/g, (c) => `!${c}`)}%`;
  const like = (e: Expression<unknown>) => w.dialect.likeInsensitive(e, pattern, false);
  const items: Expression<SqlBool>[] = [like(w.dialect.text(ref(alias, 'id'))), like(ref(alias, 'document_id'))];
  if (type.localized) items.push(like(ref(alias, 'locale')));
  const numeric = !Number.isNaN(Number(q));
  for (const a of type.attributes.values()) {
    if (a.kind !== 'scalar' || a.private || !a.searchable) continue;
    if (TEXT_TYPES.has(a.type)) items.push(like(ref(alias, a.column)));
    else if (numeric && NUMBER_TYPES.has(a.type)) items.push(like(w.dialect.text(ref(alias, a.column))));
  }
  return sql<SqlBool>`(${sql.join(items, sql` or `)})`;
}

const TEXT_TYPES: ReadonlySet<string> = new Set(['string', 'text', 'richtext', 'email', 'uid', 'enumeration']);
const NUMBER_TYPES: ReadonlySet<string> = new Set(['integer', 'biginteger', 'float', 'decimal']);

/** The root conditions of a read: version, cohort, filters, search, and optionally one document. */
export function rootConditions(ctx: ReadContext, type: ContentType, alias: string, q: FindQuery, w: WhereContext, documentId?: string): Expression<SqlBool>[] {
  const conds: Expression<SqlBool>[] = [];
  const st = statusCondition(type, alias, q.status);
  if (st) conds.push(st);
  if (type.localized && q.locale !== null && q.locale !== '*') {
    if (typeof q.locale === 'string') conds.push(sql<SqlBool>`${ref(alias, 'locale')} = ${keyLiteral(q.locale)}`);
    else conds.push(q.locale.length ? sql<SqlBool>`${ref(alias, 'locale')} in (${sql.join(q.locale.map(keyLiteral))})` : sql<SqlBool>`1 = 0`);
  }
  if (documentId !== undefined) conds.push(sql<SqlBool>`${ref(alias, 'document_id')} = ${documentId}`);
  if (q.publicationFilter && type.draftAndPublish) conds.push(publicationCondition(type, alias, q.publicationFilter, q.status));
  if (q.where) conds.push(compileWhere(w, type, alias, q.where));
  if (q.search !== null) conds.push(searchCondition(type, alias, q.search, w));
  return conds;
}

/** ORDER BY terms for sort items on rows aliased `alias` of `schema`. */
export function orderTerms(w: WhereContext, schema: ContentType | Component, alias: string, sort: readonly SortItem[]): RawBuilder<unknown>[] {
  const d = w.dialect;
  const terms: RawBuilder<unknown>[] = [];
  let idLast = false;
  for (const s of sort) {
    const key = s.path.length === 0 ? ref(alias, s.field.column) : relatedSortKey(w, schema, alias, s);
    const dir = s.direction === 'asc' ? sql.raw('asc') : sql.raw('desc');
    const nulls = d.nullsFirstOnAsc ? sql.raw('') : sql.raw(s.direction === 'asc' ? ' nulls first' : ' nulls last');
    terms.push(sql`${inCodePointOrder(d, s.field, key)} ${dir}${nulls}`);
    idLast = s.path.length === 0 && s.field.column === 'id';
  }
  if (!idLast) terms.push(sql`${ref(alias, 'id')} asc`);
  return terms;
}

export function whereContext(ctx: ReadContext, scope: ReadScope): WhereContext {
  return { model: ctx.model, dialect: ctx.database.dialect, scope, next: aliasCounter() };
}

/** Columns every root read selects, besides the shape's. */
export function baseColumns(type: ContentType): string[] {
  return ['id', 'document_id', ...(type.localized ? ['locale'] : []), 'published_at'];
}

/** pages up to this size fetch their rows by id after the one-pass count (an IN list of ids) */
const ONE_PASS_MAX_PAGE = 1000;

export interface Page {
  readonly rows: Row[];
  readonly total: number | null;
}

export async function findPage(ctx: ReadContext, type: ContentType, q: FindQuery, columns: readonly string[], documentId?: string): Promise<Page> {
  const scope = scopeOf(ctx, type, q);
  const cols = [...new Set([...baseColumns(type), ...columns])].map((c) => `r.${c}`);
  const counted = q.pagination.withCount && documentId === undefined;
  if (q.where === null && q.search === null) return await unfilteredPage(ctx, type, q, scope, cols, documentId, counted);
  const w = whereContext(ctx, scope);
  const conds = rootConditions(ctx, type, 'r', q, w, documentId);
  const db = ctx.database.db;
  const count = async (): Promise<number> => {
    const c = (await db
      .selectFrom(`${type.table} as r`)
      .select(sql<number>`count(*)`.as('c'))
      .where(and(rootConditions(ctx, type, 'r', q, whereContext(ctx, scope))))
      .executeTakeFirst()) as { c: unknown } | undefined;
    return Number(c?.c ?? 0);
  };
  if (counted && q.pagination.limit <= ONE_PASS_MAX_PAGE) return await countedInOnePass(ctx, type, q, w, conds, cols, count);
  let rows: Promise<Row[]>;
  if (documentId === undefined && sortsMatches(q)) {
    const ids = idsInOrder(ctx, type, q, w, and(conds), q.pagination.start).execute();
    rows = ids.then((found) => rowsById(ctx, type, cols, idsOf(found as Row[])));
  } else {
    let page = db.selectFrom(`${type.table} as r`).select(cols).where(and(conds));
    // one document has one row per locale and status: its read needs no ordering (and an ORDER BY
    // would tempt the planner away from the document-id index)
    if (documentId === undefined) for (const term of orderTerms(w, type, 'r', q.sort)) page = page.orderBy(term);
    rows = windowed(page, q.pagination).execute() as Promise<Row[]>;
  }
  if (!counted) return { rows: await rows, total: null };
  const [page, total] = await Promise.all([rows, count()]);
  return { rows: page, total };
}

/**
 * Whether the page's order is other than the row id's, which no index gives in general: the database
 * then sorts every match to find the page, and a statement selecting the page's columns carries each
 * match's whole row through that sort (SQLite copies every selected column into its sorter, PostgreSQL
 * forms each tuple for its top-N heap). Such a page reads its ids sorted, then its rows by id: the
 * sorted read of 100 of 1,000 articles by views took 2.4 ms on SQLite with the rows, 1.1 ms as ids and
 * then rows (PostgreSQL 5.5–6.2 ms against 2.0–3.5).
 */
function sortsMatches(q: FindQuery): boolean {
  return q.sort.some((s) => s.path.length > 0 || s.field.column !== 'id');
}

/** a page's row ids in its order (`offset`: the page's start, or a template's placeholder for it) */
function idsInOrder(ctx: ReadContext, type: ContentType, q: FindQuery, w: WhereContext, where: Expression<SqlBool>, offset: unknown) {
  let b = ctx.database.db.selectFrom(`${type.table} as r`).select('r.id').where(where);
  for (const term of orderTerms(w, type, 'r', q.sort)) b = b.orderBy(term);
  return windowed(b, q.pagination, offset);
}

function idsOf(rows: readonly Row[]): number[] {
  return rows.map((r) => Number(r['id']));
}

/** The rows of `ids`, in that order; a row deleted since its id was read is left out, as a later read would. */
async function rowsById(ctx: ReadContext, type: ContentType, cols: readonly string[], ids: readonly number[]): Promise<Row[]> {
  if (ids.length === 0) return [];
  const { database } = ctx;
  const found = await runTemplate(ctx.model, database, `rows\u0000${type.table}\u0000${cols.join(',')}`, [ids] as const, (list) =>
    database.db
      .selectFrom(`${type.table} as r`)
      .select([...cols])
      .where(database.dialect.oneOf(ref('r', 'id'), list, 'integer')),
  );
  const byId = new Map((found as Row[]).map((r) => [Number(r['id']), r]));
  return ids.map((id) => byId.get(id)).filter((r): r is Row => r !== undefined);
}

/** What shapes an unfiltered read's statements besides its values (limit, offset, document id). */
function unfilteredKey(type: ContentType, q: FindQuery, scope: ReadScope, cols: readonly string[], documentId: string | undefined): string {
  const sort = q.sort.map((s) => `${s.path.join('.')}.${s.field.column}:${s.direction}`).join(',');
  return JSON.stringify([type.uid, q.status, q.locale, scope.locale, scope.fixedLocale ?? false, q.publicationFilter, sort, cols, documentId === undefined]);
}

/**
 * A list or document read without filters or search: the usual request, whose statements differ
 * only in their limit, offset and document id, so they are compiled once per shape
 * (statement-template.ts). Building them through Kysely was a tenth of an uncached list's CPU.
 */
async function unfilteredPage(
  ctx: ReadContext,
  type: ContentType,
  q: FindQuery,
  scope: ReadScope,
  cols: readonly string[],
  documentId: string | undefined,
  counted: boolean,
): Promise<Page> {
  const db = ctx.database.db;
  const key = unfilteredKey(type, q, scope, cols, documentId);
  const conditions = (w: WhereContext, id: string | undefined) => and(rootConditions(ctx, type, 'r', q, w, id));
  const page =
    documentId === undefined && sortsMatches(q)
      ? sortedPage(ctx, type, q, scope, cols, key, conditions)
      : runTemplate(
          ctx.model,
          ctx.database,
          `page\u0000${key}\u0000${windowKey(q.pagination)}`,
          [q.pagination.start, documentId ?? null] as const,
          (offset, id) => {
            const w = whereContext(ctx, scope);
            let b = db
              .selectFrom(`${type.table} as r`)
              .select([...cols])
              .where(conditions(w, documentId === undefined ? undefined : (id as string)));
            // one document has one row per locale and status: its read needs no ordering (and an ORDER BY
            // would tempt the planner away from the document-id index)
            if (documentId === undefined) for (const term of orderTerms(w, type, 'r', q.sort)) b = b.orderBy(term);
            return windowed(b, q.pagination, offset);
          },
          documentId === undefined ? undefined : { before: [{ table: type.table, column: 'document_id', values: [documentId] }] },
        );
  if (!counted) return { rows: (await page) as Row[], total: null };
  const count = runTemplate(ctx.model, ctx.database, `count\u0000${key}`, [] as const, () =>
    db
      .selectFrom(`${type.table} as r`)
      .select(sql<number>`count(*)`.as('c'))
      .where(conditions(whereContext(ctx, scope), undefined)),
  );
  const [rows, counts] = await Promise.all([page, count]);
  return { rows: rows as Row[], total: Number((counts[0] as { c: unknown } | undefined)?.c ?? 0) };
}

/** An unfiltered page in an order other than the row id's: its ids sorted, then its rows (sortsMatches). */
async function sortedPage(
  ctx: ReadContext,
  type: ContentType,
  q: FindQuery,
  scope: ReadScope,
  cols: readonly string[],
  key: string,
  conditions: (w: WhereContext, id: undefined) => Expression<SqlBool>,
): Promise<Row[]> {
  const ids = await runTemplate(ctx.model, ctx.database, `pageIds\u0000${key}\u0000${windowKey(q.pagination)}`, [q.pagination.start] as const, (offset) => {
    const w = whereContext(ctx, scope);
    return idsInOrder(ctx, type, q, w, conditions(w, undefined), offset);
  });
  return await rowsById(ctx, type, cols, idsOf(ids as Row[]));
}

/**
 * A filtered, counted list: the page's ids and the total come from one pass over the matches
 * (`count(*) over ()`), then the page's rows by id. Separately, the page and the count would each
 * visit every match (a relation filter at 1M articles on SQLite: 126 + 141 ms apart, 150 ms together).
 * On PostgreSQL and MySQL the two could run side by side on two connections, but the database's
 * work is what bounds a loaded server, and the rows wait for the ids either way when the page is
 * sorted (sortsMatches). Unfiltered lists keep two statements: their count reads an index alone and
 * their page stops early, which a window would prevent.
 */
async function countedInOnePass(
  ctx: ReadContext,
  type: ContentType,
  q: FindQuery,
  w: WhereContext,
  conds: Expression<SqlBool>[],
  cols: string[],
  count: () => Promise<number>,
): Promise<Page> {
  const head = idsInOrder(ctx, type, q, w, and(conds), q.pagination.start).select(sql<number>`count(*) over ()`.as('__total'));
  const matches = (await head.execute()) as Row[];
  // past the last page the window has no row to carry the total on
  if (matches.length === 0) return { rows: [], total: q.pagination.start === 0 ? 0 : await count() };
  return { rows: await rowsById(ctx, type, cols, idsOf(matches)), total: Number(matches[0]!['__total']) };
}
