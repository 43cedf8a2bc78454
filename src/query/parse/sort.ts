// `sort` → SortItem[] (behaviour.md §5.2): strings, comma lists, arrays, objects, and paths through
// relations and components. When a sort has several problems, the one reported is the one Strapi
// reports (see `Stage`).
import { takeSteps } from './step-budget.js';
import { ValidationError } from '../../errors.js';
import { findAction } from '../../auth/ability.js';
import type { SortItem } from '../ast.js';
import { FILE_UID, relationTarget, type Component, type ContentType } from '../../schema/types.js';
import { isObj, isPoison, type ParseContext } from './context.js';
import { scalarField } from './field-ref.js';
import { isAdminAuthor, isPrivateInStrapi, strapiOnlyAttribute } from './strapi-only-attributes.js';
import { adminSortProblem, type AdminProblem } from './admin-model.js';

type Schema = ContentType | Component;

/**
 * Strapi validates a sort with one walk of the whole sort per check, in this order, and reads the
 * directions and the keys past a field only afterwards, while converting it: a problem of an earlier
 * stage anywhere wins over one of a later stage, whichever key it is on.
 */
const enum Stage {
  UnknownKey,
  DynamicZone,
  Polymorphic,
  Password,
  Hidden,
  NothingAfter,
  NotFindable,
  Order,
  PastField,
  /** Folio's own bound (TO_MANY_PER_KEY), met only where Strapi's checks all pass */
  ToMany,
}

interface Failure {
  readonly error: ValidationError;
  readonly stage: Stage;
  /** segments above the bad key: the entries of a list are walked side by side, so a shallower problem is met first */
  readonly depth: number;
}

/** A sort through a relation that never holds a link (to the admin panel's users or roles): every document ties on it. */
const TIE = Symbol('tie');

type Reading = SortItem | Failure | typeof TIE;

const isFailure = (r: Reading): r is Failure => typeof r === 'object' && 'error' in r;

function invalid(key: string, path: readonly string[], stage: Stage): Failure {
  return { error: ValidationError.invalidKey(key, path.length ? path.join('.') : null, 'query', 'sort'), stage, depth: path.length };
}

function atPath(p: AdminProblem, stage: Stage): Failure {
  return { error: ValidationError.invalidKey(p.key, p.path, 'query', 'sort'), stage, depth: p.path === null ? 0 : p.path.split('.').length };
}

const ORDER_ERROR = 'Invalid order. order can only be one of asc|desc|ASC|DESC';

/**
 * To-many relations one sort key may go through. After a second one, the rows one row reaches grow to
 * whole tables (an article's categories' articles), and the key costs that for every row sorted:
 * `sort=categories.articles.title` read a million rows for 1,000 articles, four such steps ran 25 s on
 * PostgreSQL. One per key (`sort=tags.label`) stays linear. Strapi sets no bound.
 */
const TO_MANY_PER_KEY = 1;

function tooManyToMany(walked: readonly string[], toMany: number): Failure {
  const error = new ValidationError(`sort may go through at most one to-many relation per key (${walked.join('.')} goes through ${toMany})`, {
    source: 'query',
    param: 'sort',
    limit: TO_MANY_PER_KEY,
  });
  return { error, stage: Stage.ToMany, depth: walked.length };
}

/**
 * `order`: the direction as the client wrote it (undefined when none). It is checked only once the path
 * ends at a field: on a relation, component or media Strapi reads it as one key deeper (`author:desc`
 * is "Invalid key desc at author"), and an empty one as none.
 */
function resolve(ctx: ParseContext, schema: Schema, segments: readonly string[], order: string | undefined): Reading {
  let cur: Schema = schema;
  const walked: string[] = [];
  let unlinked = false;
  let toMany = 0;
  for (const [i, seg] of segments.entries()) {
    if (isPoison(seg)) return invalid(seg, walked, Stage.UnknownKey);
    const last = i === segments.length - 1;
    const here = [...walked, seg];
    const field = scalarField(cur, seg);
    if (field) {
      if (!last) return invalid(segments[i + 1]!, here, Stage.PastField);
      const d = (order ?? 'asc').toLowerCase();
      if (d !== 'asc' && d !== 'desc') return { error: new ValidationError(ORDER_ERROR), stage: Stage.Order, depth: here.length };
      if (unlinked) return TIE;
      if (toMany > TO_MANY_PER_KEY) return tooManyToMany(walked, toMany);
      return { path: walked, field, direction: d };
    }
    const a = cur.attributes.get(seg) ?? cur.adminRelations?.get(seg);
    const deeper = (): Failure => (order?.trim() ? invalid(order.trim(), here, Stage.UnknownKey) : invalid(seg, here, Stage.NothingAfter));
    if (!a && seg === 'localizations' && cur.modelType === 'contentType' && cur.localized) {
      // the document's other locale versions, sorted by as a to-many relation to its own type
      if (!ctx.ability.can(findAction(cur.uid))) return invalid(seg, here, Stage.NotFindable);
      if (last) return deeper();
      walked.push(seg);
      continue;
    }
    if (!a) {
      const strapiOnly = strapiOnlyAttribute(cur, seg);
      if (strapiOnly === null) return invalid(seg, walked, Stage.UnknownKey);
      if (strapiOnly === 'polymorphic') return invalid(seg, here, Stage.Polymorphic);
      if (strapiOnly === 'scalar') return invalid(seg, here, Stage.Hidden);
      if (isAdminAuthor(cur, seg)) {
        // Strapi walks the admin user's names below it before it refuses the private relation
        const rest = segments.slice(i + 1);
        const unknown = adminSortProblem(rest, order, here, 'unknown');
        if (unknown) return atPath(unknown, Stage.UnknownKey);
        const password = adminSortProblem(rest, order, here, 'password');
        if (password) return atPath(password, Stage.Password);
        return invalid(seg, here, Stage.Hidden);
      }
      if (last && order?.trim()) return deeper();
      return invalid(seg, here, isPrivateInStrapi(seg) || !last ? Stage.Hidden : Stage.NothingAfter);
    }
    if (a.kind === 'dynamiczone') return invalid(seg, here, Stage.DynamicZone);
    if (a.private || a.kind === 'scalar') return invalid(seg, here, Stage.Hidden);
    // a direction after it is the deeper key Strapi meets before it checks the permission (`Invalid key asc at author`)
    if (a.kind === 'relation' && !ctx.ability.can(findAction(a.target))) return last && order?.trim() ? deeper() : invalid(seg, here, Stage.NotFindable);
    if (last) return deeper();
    unlinked ||= cur.adminRelations?.get(seg) === a;
    if (a.kind === 'relation' && a.toMany) toMany++;
    cur = a.kind === 'relation' ? relationTarget(ctx.model, a) : a.kind === 'media' ? ctx.model.contentTypes.get(FILE_UID)! : ctx.model.components.get(a.component)!;
    walked.push(seg);
  }
  return invalid('', [], Stage.UnknownKey);
}

function fromString(ctx: ParseContext, schema: Schema, s: string, out: Reading[]): void {
  for (const part of s.split(',')) {
    const [name, order] = part.split(':');
    if (!name || name.trim() === '') continue;
    out.push(resolve(ctx, schema, name.trim().split('.'), order?.trim()));
  }
}

function fromObject(ctx: ParseContext, schema: Schema, o: Record<string, unknown>, prefix: string[], out: Reading[]): void {
  for (const [k, v] of Object.entries(o)) {
    if (typeof v === 'string') out.push(resolve(ctx, schema, [...prefix, k], v));
    else if (isObj(v)) fromObject(ctx, schema, v, [...prefix, k], out);
    else throw new ValidationError(`Invalid sort type expected object or string got ${Array.isArray(v) ? 'array' : typeof v}`);
  }
}

/** Whether a list item asks for any order (qs reads `sort[]` as `[null]`, which Strapi takes as no sort). */
function meaningful(item: unknown): boolean {
  if (typeof item === 'string') return item.split(',').some((part) => (part.split(':')[0] ?? '').trim() !== '');
  if (!isObj(item)) return false;
  return Object.values(item).some((v) => (typeof v === 'string' ? v !== '' : meaningful(v)));
}

/**
 * The problem Strapi names first: the earliest stage; within it, for the entries of a list (walked side by
 * side) the shallowest and then the first, for the keys of an object (walked one after another) the first.
 */
function first(failures: readonly Failure[], sideBySide: boolean): Failure {
  let best = failures[0]!;
  for (const f of failures) {
    const sooner = f.stage < best.stage || (f.stage === best.stage && sideBySide && f.stage < Stage.Order && f.depth < best.depth);
    if (sooner) best = f;
  }
  return best;
}

export function parseSort(ctx: ParseContext, schema: Schema, raw: unknown): SortItem[] {
  if (raw === undefined || raw === null || raw === '') return [];
  const readings: Reading[] = [];
  if (Array.isArray(raw)) {
    if (!raw.some(meaningful)) return [];
    // Strapi walks a list of strings or a list of objects; any other list as an object keyed by index
    if (!raw.every((x) => typeof x === 'string') && !raw.every(isObj)) throw ValidationError.invalidKey('0', null, 'query', 'sort');
    for (const item of raw) {
      if (typeof item === 'string') fromString(ctx, schema, item, readings);
      else fromObject(ctx, schema, item as Record<string, unknown>, [], readings);
    }
  } else if (typeof raw === 'string') fromString(ctx, schema, raw, readings);
  else if (isObj(raw)) fromObject(ctx, schema, raw, [], readings);
  else throw new ValidationError(`Invalid sort type expected object or string got ${typeof raw}`);
  const failures = readings.filter(isFailure);
  if (failures.length) throw first(failures, !isObj(raw)).error;
  return withinSortBounds(ctx, withoutRepeats(readings.filter((r): r is SortItem => r !== TIE)));
}

/**
 * A key named again decides nothing the first one didn't (only ties reach it, and it ties them again):
 * left out, as each key through relations costs a subquery per row (twenty copies of one key four
 * relations deep kept a SQLite server busy 16 s).
 */
function withoutRepeats(items: readonly SortItem[]): SortItem[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const key = [...item.path, item.field.column].join('\u0000');
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * Relation, component and media steps one request's sorts (populate's included) may take in all: each
 * is a subquery run for every row sorted. Strapi sets no bound.
 */
export const MAX_SORT_STEPS = 25;

function withinSortBounds(ctx: ParseContext, items: SortItem[]): SortItem[] {
  takeSteps(
    ctx.sortSteps,
    items.reduce((sum, item) => sum + item.path.length, 0),
    MAX_SORT_STEPS,
    'sort',
  );
  return items;
}
