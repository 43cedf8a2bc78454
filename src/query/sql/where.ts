// Compiles a Where node to SQL. Values are always bound parameters; identifiers come from the model.
// Conditions through relations, components and media are EXISTS subqueries, so a match on several
// related rows never duplicates the root row and counts stay counts of documents.
import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import type { CompareOp, FieldRef, SqlValue, Where } from '../ast.js';
import { ValidationError } from '../../errors.js';
import type { Dialect } from '../../database/dialect.js';
import { FILE_UID, MEDIA_LINK_TABLE, type Component, type ContentType, type Model } from '../../schema/types.js';
import { and, isContentType, ownerVersion, ref, statusCondition, targetVersion, type ReadScope } from './scope.js';
import { keyLiteral } from './key-literal.js';
import { onMissingRow } from '../missing-row.js';
import { inCodePointOrder } from './code-point-order.js';

export interface WhereContext {
  readonly model: Model;
  readonly dialect: Dialect;
  readonly scope: ReadScope;
  /** alias counter shared by one statement */
  next(): string;
}

export function aliasCounter(): () => string {
  let n = 0;
  return () => `t${++n}`;
}

function escapeLike(v: string): string {
  return v.replace(/[!%_]/g, (c) => `!${c}`);
}

function bindValue(d: Dialect, field: FieldRef, v: SqlValue): unknown {
  if (v === null) return null;
  if (field.valueType === 'boolean') return d.toBoolean(v === true);
  if (field.valueType === 'datetime' && typeof v === 'string') return d.toDatetime(new Date(v));
  return v;
}

/** A value lower-cased by the database, as the column it is compared with (see like-insensitive.ts for why). */
function lowerValue(d: Dialect, v: string): RawBuilder<string> {
  return d.lower(sql.val(v));
}

function like(d: Dialect, col: RawBuilder<unknown>, pattern: string, insensitive: boolean, negate: boolean): RawBuilder<SqlBool> {
  if (insensitive) return d.likeInsensitive(col, pattern, negate);
  return sql<SqlBool>`${col} ${negate ? sql`not like` : sql`like`} ${d.likePattern(pattern)} escape '!'`;
}

function compare(ctx: WhereContext, alias: string, field: FieldRef, op: CompareOp, value: SqlValue | readonly SqlValue[]): RawBuilder<SqlBool> {
  const d = ctx.dialect;
  const col = ref(alias, field.column);
  const ordered = inCodePointOrder(d, field, col);
  const one = (v: SqlValue | readonly SqlValue[]): unknown => bindValue(d, field, Array.isArray(v) ? (v[0] ?? null) : (v as SqlValue));
  const list = (v: SqlValue | readonly SqlValue[]): unknown[] => (Array.isArray(v) ? v : [v]).map((x: SqlValue) => bindValue(d, field, x));
  const str = (v: SqlValue | readonly SqlValue[]): string => String(Array.isArray(v) ? v[0] : v);
  switch (op) {
    case '$eq':
      return value === null ? sql<SqlBool>`${col} is null` : sql<SqlBool>`${col} = ${one(value)}`;
    case '$ne':
      return value === null ? sql<SqlBool>`${col} is not null` : sql<SqlBool>`${col} <> ${one(value)}`;
    case '$eqi':
      return value === null ? sql<SqlBool>`${col} is null` : sql<SqlBool>`${d.lower(col)} = ${lowerValue(d, str(value))}`;
    case '$nei':
      return value === null ? sql<SqlBool>`${col} is not null` : sql<SqlBool>`${d.lower(col)} <> ${lowerValue(d, str(value))}`;
    case '$lt':
      return sql<SqlBool>`${ordered} < ${one(value)}`;
    case '$lte':
      return sql<SqlBool>`${ordered} <= ${one(value)}`;
    case '$gt':
      return sql<SqlBool>`${ordered} > ${one(value)}`;
    case '$gte':
      return sql<SqlBool>`${ordered} >= ${one(value)}`;
    case '$in': {
      const vs = list(value);
      return vs.length === 0 ? sql<SqlBool>`1 = 0` : sql<SqlBool>`${col} in (${sql.join(vs)})`;
    }
    case '$notIn': {
      const vs = list(value);
      return vs.length === 0 ? sql<SqlBool>`1 = 1` : sql<SqlBool>`${col} not in (${sql.join(vs)})`;
    }
    case '$between': {
      const [a, b] = list(value);
      return sql<SqlBool>`${ordered} between ${a} and ${b}`;
    }
    case '$null':
      return value === true ? sql<SqlBool>`${col} is null` : sql<SqlBool>`${col} is not null`;
    case '$notNull':
      return value === true ? sql<SqlBool>`${col} is not null` : sql<SqlBool>`${col} is null`;
    case '$contains':
      return like(d, col, `%${escapeLike(str(value))}%`, false, false);
    case '$notContains':
      return like(d, col, `%${escapeLike(str(value))}%`, false, true);
    case '$containsi':
      return like(d, col, `%${escapeLike(str(value))}%`, true, false);
    case '$notContainsi':
      return like(d, col, `%${escapeLike(str(value))}%`, true, true);
    case '$startsWith':
      return like(d, col, `${escapeLike(str(value))}%`, false, false);
    case '$startsWithi':
      return like(d, col, `${escapeLike(str(value))}%`, true, false);
    case '$endsWith':
      return like(d, col, `%${escapeLike(str(value))}`, false, false);
    case '$endsWithi':
      return like(d, col, `%${escapeLike(str(value))}`, true, false);
  }
}

export function compileWhere(ctx: WhereContext, schema: ContentType | Component, alias: string, w: Where): Expression<SqlBool> {
  switch (w.kind) {
    case 'and':
      return and(w.items.map((i) => compileWhere(ctx, schema, alias, i)));
    case 'or':
      if (w.items.length === 0) return sql<SqlBool>`1 = 1`;
      return sql<SqlBool>`(${sql.join(
        w.items.map((i) => compileWhere(ctx, schema, alias, i)),
        sql` or `,
      )})`;
    case 'not':
      return sql<SqlBool>`not (${compileWhere(ctx, schema, alias, w.item)})`;
    case 'compare':
      return compare(ctx, alias, w.field, w.op, w.value);
    case 'relation':
    case 'component':
    case 'media':
    case 'localizations': {
      const linked = LINKED[w.kind];
      const some = linked(ctx, schema, alias, w.attribute, w.where);
      // a condition that holds on Strapi's row of NULLs (missing-row.ts) also keeps the rows with no link
      if (onMissingRow(w.where) !== 'true') return some;
      return sql<SqlBool>`(${some} or not (${linked(ctx, schema, alias, w.attribute, null)}))`;
    }
    case 'constant':
      return w.value ? sql<SqlBool>`1 = 1` : sql<SqlBool>`1 = 0`;
  }
}

/** A condition true when some linked row matches `where` (any linked row when `where` is null). */
type Linked = (ctx: WhereContext, schema: ContentType | Component, alias: string, attribute: string, where: Where | null) => RawBuilder<SqlBool>;

const LINKED: Readonly<Record<'relation' | 'component' | 'media' | 'localizations', Linked>> = {
  relation: (...a) => relationExists(...a),
  component: (...a) => componentExists(...a),
  media: (...a) => mediaExists(...a),
  localizations: (...a) => localizationsExist(...a),
};

function matching(ctx: WhereContext, schema: ContentType | Component, alias: string, where: Where | null): Expression<SqlBool>[] {
  return where ? [compileWhere(ctx, schema, alias, where)] : [];
}

function notTraversable(attribute: string): ValidationError {
  return ValidationError.invalidKey(attribute, attribute, 'query', 'filters');
}

function relationExists(ctx: WhereContext, schema: ContentType | Component, alias: string, attribute: string, where: Where | null): RawBuilder<SqlBool> {
  const attr = schema.attributes.get(attribute);
  // the parser only builds relation nodes for relations; a node that names something else is refused
  // as the parser would refuse it, never a 500
  if (!attr || attr.kind !== 'relation') throw notTraversable(attribute);
  const target = ctx.model.contentTypes.get(attr.target)!;
  const l = ctx.next();
  const t = ctx.next();
  if (attr.owner && (ctx.scope.fixedLocale || !correlated(schema, target))) {
    // not tied to the source row's locale: an uncorrelated IN lets the database start from the
    // (usually few) matching targets instead of testing every source row
    const conds = [...targetVersion(schema, alias, target, t, l, ctx.scope), ...matching(ctx, target, t, where)];
    return sql<SqlBool>`${ref(alias, 'id')} in (select ${ref(l, 'source_id')} from ${sql.table(attr.linkTable)} as ${sql.id(l)} join ${sql.table(target.table)} as ${sql.id(t)} on ${ref(t, 'document_id')} = ${ref(l, 'target_document_id')} where ${and(conds)})`;
  }
  if (attr.owner) {
    const conds = [sql<SqlBool>`${ref(l, 'source_id')} = ${ref(alias, 'id')}`, ...targetVersion(schema, alias, target, t, l, ctx.scope), ...matching(ctx, target, t, where)];
    return sql<SqlBool>`exists (select 1 from ${sql.table(attr.linkTable)} as ${sql.id(l)} join ${sql.table(target.table)} as ${sql.id(t)} on ${ref(t, 'document_id')} = ${ref(l, 'target_document_id')} where ${and(conds)})`;
  }
  const from = sql`${sql.table(attr.linkTable)} as ${sql.id(l)} join ${sql.table(target.table)} as ${sql.id(t)} on ${ref(t, 'id')} = ${ref(l, 'source_id')}`;
  if (ctx.scope.fixedLocale || !localizedType(schema)) {
    // the owner's version doesn't depend on this row: as on the owning side, an uncorrelated IN tests
    // the condition once per owner row, where a correlated EXISTS tested it again for every row of
    // this side (a to-many inverse reached through another to-many did it thousands of times)
    const conds = [...ownerVersion(schema, alias, target, t, l, ctx.scope), ...matching(ctx, target, t, where)];
    return sql<SqlBool>`${ref(alias, 'document_id')} in (select ${ref(l, 'target_document_id')} from ${from} where ${and(conds)})`;
  }
  const conds = [
    sql<SqlBool>`${ref(l, 'target_document_id')} = ${ref(alias, 'document_id')}`,
    ...ownerVersion(schema, alias, target, t, l, ctx.scope),
    ...matching(ctx, target, t, where),
  ];
  return sql<SqlBool>`exists (select 1 from ${from} where ${and(conds)})`;
}

/** true when the target version depends on the source row (both sides localized) */
function correlated(schema: ContentType | Component, target: ContentType): boolean {
  return target.localized && localizedType(schema);
}

function localizedType(schema: ContentType | Component): boolean {
  return isContentType(schema) && schema.localized;
}

function componentExists(ctx: WhereContext, schema: ContentType | Component, alias: string, attribute: string, where: Where | null): RawBuilder<SqlBool> {
  const attr = schema.attributes.get(attribute);
  if (!attr || attr.kind !== 'component') throw notTraversable(attribute);
  const comp = ctx.model.components.get(attr.component)!;
  const c = ctx.next();
  const t = ctx.next();
  const conds = [sql<SqlBool>`${ref(c, 'entity_id')} = ${ref(alias, 'id')}`, sql<SqlBool>`${ref(c, 'field')} = ${attribute}`, ...matching(ctx, comp, t, where)];
  return sql<SqlBool>`exists (select 1 from ${sql.table(schema.componentTable)} as ${sql.id(c)} join ${sql.table(comp.table)} as ${sql.id(t)} on ${ref(t, 'id')} = ${ref(c, 'cmp_id')} where ${and(conds)})`;
}

function mediaExists(ctx: WhereContext, schema: ContentType | Component, alias: string, attribute: string, where: Where | null): RawBuilder<SqlBool> {
  const file = ctx.model.contentTypes.get(FILE_UID)!;
  const m = ctx.next();
  const t = ctx.next();
  const conds = [
    sql<SqlBool>`${ref(m, 'related_id')} = ${ref(alias, 'id')}`,
    sql<SqlBool>`${ref(m, 'related_type')} = ${keyLiteral(schema.uid)}`,
    sql<SqlBool>`${ref(m, 'field')} = ${keyLiteral(attribute)}`,
    ...matching(ctx, file, t, where),
  ];
  return sql<SqlBool>`exists (select 1 from ${sql.table(MEDIA_LINK_TABLE)} as ${sql.id(m)} join ${sql.table(file.table)} as ${sql.id(t)} on ${ref(t, 'id')} = ${ref(m, 'file_id')} where ${and(conds)})`;
}

/**
 * The document's rows in other locales, in the status of the read: the versions
 * `populate[localizations]` shows. (Strapi's join also finds the row itself and its other status, so
 * there `filters[localizations][locale]=en` keeps every English document; README.)
 */
function localizationsExist(ctx: WhereContext, schema: ContentType | Component, alias: string, attribute: string, where: Where | null): RawBuilder<SqlBool> {
  if (!isContentType(schema) || !schema.localized) throw notTraversable(attribute);
  const t = ctx.next();
  const conds: Expression<SqlBool>[] = [sql<SqlBool>`${ref(t, 'document_id')} = ${ref(alias, 'document_id')}`, sql<SqlBool>`${ref(t, 'locale')} <> ${ref(alias, 'locale')}`];
  const st = statusCondition(schema, t, ctx.scope.status);
  if (st) conds.push(st);
  // the rows matched here are in other locales than the read's: below them no locale is fixed
  conds.push(...matching({ ...ctx, scope: { ...ctx.scope, fixedLocale: false } }, schema, t, where));
  return sql<SqlBool>`exists (select 1 from ${sql.table(schema.table)} as ${sql.id(t)} where ${and(conds)})`;
}

export { isContentType };
