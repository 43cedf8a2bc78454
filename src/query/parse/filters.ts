// `filters` → Where, checked against the model (behaviour.md §5.1). Unknown, private and
// forbidden keys are rejected where they are met, with the offending path.
import { takeSteps } from './step-budget.js';
import { ValidationError } from '../../errors.js';
import { findAction } from '../../auth/ability.js';
import { COMPARE_OPS, type CompareOp, type FieldRef, type SqlValue, type Where } from '../ast.js';
import { FILE_UID, relationTarget, type Component, type ContentType } from '../../schema/types.js';
import { onMissingRow } from '../missing-row.js';
import { castBoolean, castFilterValue } from './cast-value.js';
import { isObj, isPoison, type ParseContext } from './context.js';
import { scalarField } from './field-ref.js';
import { isAdminAuthor, isStrapiOnlyAttribute } from './strapi-only-attributes.js';
import { adminFilterProblem } from './admin-model.js';

type Schema = ContentType | Component;

const ID: FieldRef = { column: 'id', valueType: 'integer' };

const TEXT_OPS = new Set<CompareOp>(['$eqi', '$nei', '$contains', '$notContains', '$containsi', '$notContainsi', '$startsWith', '$startsWithi', '$endsWith', '$endsWithi']);

function invalid(key: string, path: string | null): ValidationError {
  return ValidationError.invalidKey(key, path, 'query', 'filters');
}

const joinPath = (path: readonly string[]): string | null => (path.length ? path.join('.') : null);

function and(items: Where[]): Where | null {
  if (items.length === 0) return null;
  return items.length === 1 ? items[0]! : { kind: 'and', items };
}

function compare(field: FieldRef, op: CompareOp, raw: unknown, name: string): Where {
  // json and blocks compare as their stored JSON text, as in Strapi
  if (TEXT_OPS.has(op) && field.valueType !== 'string' && field.valueType !== 'json') {
    throw new ValidationError(`${op} can only be used on text fields, not on ${name}`, { source: 'query', param: 'filters' });
  }
  if (op === '$null' || op === '$notNull') return { kind: 'compare', field, op, value: castBoolean(raw, name) };
  if (op === '$in' || op === '$notIn') {
    const list = Array.isArray(raw) ? raw : isObj(raw) ? null : [raw];
    if (!list) throw new ValidationError(`${op} on ${name} expects a list of values`, { source: 'query', param: 'filters' });
    return { kind: 'compare', field, op, value: list.map((v) => castFilterValue(field, v, name)) };
  }
  if (op === '$between') {
    if (!Array.isArray(raw) || raw.length !== 2) throw new ValidationError(`$between on ${name} needs exactly two values`, { source: 'query', param: 'filters' });
    return { kind: 'compare', field, op, value: raw.map((v) => castFilterValue(field, v, name)) as SqlValue[] };
  }
  if (Array.isArray(raw)) {
    if (raw.length === 0) throw new ValidationError(`${op} on ${name} got an empty list`, { source: 'query', param: 'filters' });
    return { kind: 'or', items: raw.map((v) => compare(field, op, v, name)) };
  }
  if (raw === null && !['$eq', '$ne', '$eqi', '$nei'].includes(op)) {
    throw new ValidationError(`${op} on ${name} needs a value`, { source: 'query', param: 'filters' });
  }
  return { kind: 'compare', field, op, value: castFilterValue(field, raw, name) };
}

/** The conditions on one scalar field: `filters[field]=v` or `filters[field][$op]=v`. */
function fieldConditions(field: FieldRef, raw: unknown, name: string, path: readonly string[]): Where | null {
  if (!isObj(raw)) return compare(field, '$eq', raw, name);
  const items: Where[] = [];
  for (const [op, v] of Object.entries(raw)) {
    if (op === '$not') {
      const inner = fieldConditions(field, v, name, path);
      if (inner) items.push({ kind: 'not', item: inner });
    } else if (op === '$and' || op === '$or') {
      if (!Array.isArray(v)) throw new ValidationError(`${op} under ${name} expects an array`, { source: 'query', param: 'filters' });
      const sub = v.map((x) => fieldConditions(field, x, name, path)).filter((w): w is Where => w !== null);
      if (sub.length) items.push({ kind: op === '$and' ? 'and' : 'or', items: sub });
    } else if (COMPARE_OPS.has(op)) {
      items.push(compare(field, op as CompareOp, v, name));
    } else {
      throw invalid(op, path.join('.'));
    }
  }
  return and(items);
}

function logical(ctx: ParseContext, schema: Schema, op: '$and' | '$or', v: unknown, path: readonly string[], linked = false): Where | null {
  if (!Array.isArray(v)) throw new ValidationError(`${op} expects an array of filter objects`, { key: op, path: joinPath(path), source: 'query', param: 'filters' });
  const items: Where[] = [];
  for (const item of v) {
    if (!isObj(item)) throw new ValidationError(`${op} expects an array of filter objects`, { key: op, path: joinPath(path), source: 'query', param: 'filters' });
    const w = parseObject(ctx, schema, item, path, linked);
    if (w) items.push(w);
  }
  if (items.length === 0) return null;
  return { kind: op === '$and' ? 'and' : 'or', items };
}

/**
 * `linked`: `schema` is the far side of a relation, media or component attribute. There, as in
 * Strapi, an operator with no field names the linked row's id: `filters[author][$null]=true` is
 * `filters[author][id][$null]=true`.
 */
function parseObject(ctx: ParseContext, schema: Schema, obj: Record<string, unknown>, path: readonly string[], linked = false): Where | null {
  const items: Where[] = [];
  for (const [key, v] of Object.entries(obj)) {
    if (isPoison(key)) throw invalid(key, joinPath(path));
    if (key === '$and' || key === '$or') {
      const w = logical(ctx, schema, key, v, path, linked);
      if (w) items.push(w);
      continue;
    }
    if (key === '$not') {
      if (!isObj(v)) throw new ValidationError('$not expects a filter object', { key, path: joinPath(path), source: 'query', param: 'filters' });
      const w = parseObject(ctx, schema, v, path, linked);
      if (w) items.push({ kind: 'not', item: w });
      continue;
    }
    if (linked && COMPARE_OPS.has(key)) {
      // named as the relation or component it stands for, whose id it compares
      items.push(compare(ID, key as CompareOp, v, path.length > 0 ? `${joinPath(path)}.id` : 'id'));
      continue;
    }
    if (key.startsWith('$')) throw invalid(key, joinPath(path));
    const field = scalarField(schema, key);
    if (field) {
      const w = fieldConditions(field, v, key, [...path, key]);
      if (w) items.push(w);
      continue;
    }
    const here = [...path, key];
    if (key === 'localizations' && schema.modelType === 'contentType' && schema.localized) {
      if (!ctx.ability.can(findAction(schema.uid))) throw invalid(key, here.join('.'));
      // the other locale versions of the document; a bare value or operator names their id, as on a relation
      const w = parseObject(ctx, schema, isObj(v) ? v : { id: v }, here, true);
      if (w) items.push({ kind: 'localizations', attribute: 'localizations', owner: schema.uid, where: w });
      continue;
    }
    const a = schema.attributes.get(key);
    const admin = a ? undefined : schema.adminRelations?.get(key);
    if (admin) {
      if (admin.private || !ctx.ability.can(findAction(admin.target))) throw invalid(key, here.join('.'));
      // checked as Strapi checks it against the admin user, then decided on the row of NULLs that
      // Strapi's join gives every document (no admin is ever linked)
      const w = parseObject(ctx, relationTarget(ctx.model, admin), isObj(v) ? v : { id: v }, here, true);
      if (w) items.push({ kind: 'constant', value: onMissingRow(w) === 'true' });
      continue;
    }
    if (!a && isAdminAuthor(schema, key)) {
      // Strapi walks the admin user's names below it before it refuses the private relation
      const p = adminFilterProblem(v, here);
      throw p ? invalid(p.key, p.path) : invalid(key, here.join('.'));
    }
    if (!a) throw invalid(key, isStrapiOnlyAttribute(schema, key) ? here.join('.') : joinPath(path));
    if (a.private || a.kind === 'scalar' || a.kind === 'dynamiczone') throw invalid(key, here.join('.'));
    if (a.kind === 'relation' && !ctx.ability.can(findAction(a.target))) throw invalid(key, here.join('.'));
    // a bare value compares the linked row's id, as Strapi does: filters[author]=3
    const conditions = isObj(v) ? v : { id: v };
    if (a.kind === 'relation') {
      const w = parseObject(ctx, ctx.model.contentTypes.get(a.target)!, conditions, here, true);
      if (w) items.push({ kind: 'relation', attribute: key, owner: schema.uid, where: w });
    } else if (a.kind === 'component') {
      const w = parseObject(ctx, ctx.model.components.get(a.component)!, conditions, here, true);
      if (w) items.push({ kind: 'component', attribute: key, owner: schema.uid, where: w });
    } else {
      const w = parseObject(ctx, ctx.model.contentTypes.get(FILE_UID)!, conditions, here, true);
      if (w) items.push({ kind: 'media', attribute: key, owner: schema.uid, where: w });
    }
  }
  return and(items);
}

/**
 * How many times one request's filters (the list's and every populated relation's together) may step
 * through a relation, component, media or localizations. Each step is a subquery over the linked table,
 * and `$or` repeats them freely: 100 alternatives each twelve relations deep (13 KB of query string,
 * anonymous where Public may find the types) ran 12 s on SQLite, blocking every other request meanwhile,
 * and 6 to 9 s on PostgreSQL with 60 articles. Strapi sets no bound; real filters cross a handful.
 */
export const MAX_FILTER_STEPS = 25;

function steps(w: Where): number {
  switch (w.kind) {
    case 'and':
    case 'or':
      return w.items.reduce((n, i) => n + steps(i), 0);
    case 'not':
      return steps(w.item);
    case 'compare':
    case 'constant':
      return 0;
    default:
      return 1 + steps(w.where);
  }
}

function withinSteps(ctx: ParseContext, w: Where | null): Where | null {
  takeSteps(ctx.filterSteps, w === null ? 0 : steps(w), MAX_FILTER_STEPS, 'filters');
  return w;
}

export function parseFilters(ctx: ParseContext, schema: Schema, raw: unknown): Where | null {
  if (raw === undefined || raw === null) return null;
  if (Array.isArray(raw)) return withinSteps(ctx, logical(ctx, schema, '$and', raw, []));
  if (!isObj(raw)) throw new ValidationError('The filters parameter must be an object or an array');
  return withinSteps(ctx, parseObject(ctx, schema, raw, []));
}
