// The value a row is sorted by when `sort` names a field through relations, media or components
// (`sort=author.name`, `sort=tags.articles.title`): the smallest (asc; NULL the smallest) or largest
// (desc) value among the rows the path reaches. Each step starts from the distinct rows the step before it reached (a
// derived table), so a to-many step followed by another never multiplies the rows: as one chain of
// joins, eight steps through tags and articles ran for minutes on PostgreSQL. (Not `p.id in (…)`:
// SQLite runs such a subquery again for every row it tests, since it depends on the outer row.)
// MariaDB can't name the outer row inside a derived table (Dialect.correlatedDerivedTables): there a
// path of two steps or more is walked once for every row of the table, each step keeping the distinct
// (row, reached row) pairs, and the row's key is looked up in the result.
import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import type { SortItem } from '../ast.js';
import { ValidationError } from '../../errors.js';
import { FILE_UID, MEDIA_LINK_TABLE, type Component, type ContentType } from '../../schema/types.js';
import { and, isContentType, ref, statusCondition, targetVersion, ownerVersion } from './scope.js';
import { keyLiteral } from './key-literal.js';
import type { WhereContext } from './where.js';
import { inCodePointOrder } from './code-point-order.js';
import type { Dialect } from '../../database/dialect.js';

type Schema = ContentType | Component;

/** One step from the rows of `schema` at alias `p` to the rows attribute `name` (or `localizations`) links them to. */
interface Step {
  /** the link table, to be named as `l` */
  readonly link: RawBuilder<unknown>;
  readonly l: string;
  /** ties a link row to the row at `p` */
  readonly linkOn: Expression<SqlBool>;
  /** `join <reached rows> as <alias> on …` */
  readonly reached: RawBuilder<unknown>;
  readonly alias: string;
  readonly schema: Schema;
  /** the context of the steps after this one, when it differs from this step's */
  readonly below?: WhereContext;
}

function step(w: WhereContext, schema: Schema, p: string, name: string, path: string): Step {
  const a = schema.attributes.get(name);
  const l = w.next();
  const t = w.next();
  if (a?.kind === 'relation') {
    const to = w.model.contentTypes.get(a.target)!;
    const linkOn = a.owner ? sql<SqlBool>`${ref(l, 'source_id')} = ${ref(p, 'id')}` : sql<SqlBool>`${ref(l, 'target_document_id')} = ${ref(p, 'document_id')}`;
    const targetOn = a.owner ? sql<SqlBool>`${ref(t, 'document_id')} = ${ref(l, 'target_document_id')}` : sql<SqlBool>`${ref(t, 'id')} = ${ref(l, 'source_id')}`;
    const version = a.owner ? targetVersion(schema, p, to, t, l, w.scope) : ownerVersion(schema, p, to, t, l, w.scope);
    return { link: sql.table(a.linkTable), l, linkOn, reached: sql`join ${sql.table(to.table)} as ${sql.id(t)} on ${and([targetOn, ...version])}`, alias: t, schema: to };
  }
  if (a?.kind === 'component') {
    const comp = w.model.components.get(a.component)!;
    const linkOn = and([sql<SqlBool>`${ref(l, 'entity_id')} = ${ref(p, 'id')}`, sql<SqlBool>`${ref(l, 'field')} = ${keyLiteral(name)}`]);
    return {
      link: sql.table(schema.componentTable),
      l,
      linkOn,
      reached: sql`join ${sql.table(comp.table)} as ${sql.id(t)} on ${ref(t, 'id')} = ${ref(l, 'cmp_id')}`,
      alias: t,
      schema: comp,
    };
  }
  if (a?.kind === 'media') {
    const file = w.model.contentTypes.get(FILE_UID)!;
    const linkOn = and([
      sql<SqlBool>`${ref(l, 'related_id')} = ${ref(p, 'id')}`,
      sql<SqlBool>`${ref(l, 'related_type')} = ${keyLiteral(schema.uid)}`,
      sql<SqlBool>`${ref(l, 'field')} = ${keyLiteral(name)}`,
    ]);
    return {
      link: sql.table(MEDIA_LINK_TABLE),
      l,
      linkOn,
      reached: sql`join ${sql.table(file.table)} as ${sql.id(t)} on ${ref(t, 'id')} = ${ref(l, 'file_id')}`,
      alias: t,
      schema: file,
    };
  }
  if (!a && name === 'localizations' && isContentType(schema) && schema.localized) {
    // the document's rows in other locales, in the status of the read: what populate[localizations]
    // shows and filters through it see (Strapi's join also finds the row itself and its other status; README)
    const st = statusCondition(schema, l, w.scope.status);
    const linkOn = and([sql<SqlBool>`${ref(l, 'document_id')} = ${ref(p, 'document_id')}`, sql<SqlBool>`${ref(l, 'locale')} <> ${ref(p, 'locale')}`, ...(st ? [st] : [])]);
    // the rows reached are in other locales than the read's: below them no locale is fixed
    const below = { ...w, scope: { ...w.scope, fixedLocale: false } };
    return { link: sql.table(schema.table), l, linkOn, reached: sql``, alias: l, schema, below };
  }
  // the parser only walks relations, media, components and localizations; anything else is refused as it would be
  throw ValidationError.invalidKey(name, path, 'query', 'sort');
}

/** The columns of a reached row the next step reads: its id, and a content type's document id and locale. */
function stepColumns(schema: Schema, alias: string): RawBuilder<unknown> {
  const cols = ['id', ...(schema.modelType === 'contentType' ? ['document_id', ...(schema.localized ? ['locale'] : [])] : [])];
  return sql.join(cols.map((c) => ref(alias, c)));
}

/** the path up to step `i`, as an error names it */
const pathTo = (s: SortItem, i: number): string => s.path.slice(0, i + 1).join('.');

/**
 * The key among the values reached. NULLs sort first ascending, so a NULL among them is the smallest
 * (min() would skip it), as Strapi 5.54's join meets a row first at its NULL; descending they sort
 * last, so the largest value that isn't NULL.
 */
function aggregate(d: Dialect, s: SortItem, column: RawBuilder<unknown>): RawBuilder<unknown> {
  // PostgreSQL has no min()/max() of booleans (a 500): every database compares them as 0 and 1, NULL kept
  const value = s.field.valueType === 'boolean' ? sql`case when ${column} then 1 when not ${column} then 0 end` : inCodePointOrder(d, s.field, column);
  return s.direction === 'asc' ? sql`case when count(*) > count(${value}) then null else min(${value}) end` : sql`max(${value})`;
}

/** A correlated subquery giving the smallest (asc) or largest (desc) value `s` reaches from the row at `alias`. */
export function relatedSortKey(w: WhereContext, schema: Schema, alias: string, s: SortItem): RawBuilder<unknown> {
  if (s.path.length > 1 && !w.dialect.correlatedDerivedTables) return keysOfEveryRow(w, schema, alias, s);
  let ctx = w;
  let reach = step(ctx, schema, alias, s.path[0]!, pathTo(s, 0));
  let from = sql`${reach.link} as ${sql.id(reach.l)} ${reach.reached}`;
  let where = reach.linkOn;
  for (let i = 1; i < s.path.length; i++) {
    // the next step starts from the distinct rows reached so far
    const p = w.next();
    const rows = sql`select distinct ${stepColumns(reach.schema, reach.alias)} from ${from} where ${where}`;
    ctx = reach.below ?? ctx;
    reach = step(ctx, reach.schema, p, s.path[i]!, pathTo(s, i));
    // a cross join with its condition in WHERE is an inner join to PostgreSQL, and makes SQLite (which
    // keeps the order of a cross join) read the few reached rows first rather than run them again
    // inside a scan of the link table (its plan on tables without statistics: minutes at eight steps)
    from = sql`(${rows}) as ${sql.id(p)} cross join ${reach.link} as ${sql.id(reach.l)} ${reach.reached}`;
    where = reach.linkOn;
  }
  return sql`(select ${aggregate(w.dialect, s, ref(reach.alias, s.field.column))} from ${from} where ${where})`;
}

const ROOT = 'sk_root';
const VALUE = 'sk_value';

/** The MariaDB form: the keys of every row of `schema`'s table at once, uncorrelated, then the outer row's. */
function keysOfEveryRow(w: WhereContext, schema: Schema, alias: string, s: SortItem): RawBuilder<unknown> {
  const root = w.next();
  let ctx = w;
  let reach = step(ctx, schema, root, s.path[0]!, pathTo(s, 0));
  let rows = sql`select distinct ${ref(root, 'id')} as ${sql.id(ROOT)}, ${stepColumns(reach.schema, reach.alias)} from ${sql.table(schema.table)} as ${sql.id(root)} join ${reach.link} as ${sql.id(reach.l)} on ${reach.linkOn} ${reach.reached}`;
  for (let i = 1; i < s.path.length; i++) {
    const p = w.next();
    ctx = reach.below ?? ctx;
    reach = step(ctx, reach.schema, p, s.path[i]!, pathTo(s, i));
    const from = sql`(${rows}) as ${sql.id(p)} join ${reach.link} as ${sql.id(reach.l)} on ${reach.linkOn} ${reach.reached}`;
    rows =
      i < s.path.length - 1
        ? sql`select distinct ${ref(p, ROOT)} as ${sql.id(ROOT)}, ${stepColumns(reach.schema, reach.alias)} from ${from}`
        : sql`select ${ref(p, ROOT)} as ${sql.id(ROOT)}, ${aggregate(w.dialect, s, ref(reach.alias, s.field.column))} as ${sql.id(VALUE)} from ${from} group by ${ref(p, ROOT)}`;
  }
  const k = w.next();
  return sql`(select ${ref(k, VALUE)} from (${rows}) as ${sql.id(k)} where ${ref(k, ROOT)} = ${ref(alias, 'id')})`;
}
