// What a files `populate` asks of `related`, the polymorphic link to entries and components: the
// whole list (`related`, `[related]=true`, `*`), or Strapi's morph forms — `on` fragments naming the
// linked types to show (each with its own `fields`) and `count`. Read on the media library's routes
// (`populate=related`) and below a media attribute of a content populate (`populate[cover][populate]=related`).
import { ValidationError } from '../../errors.js';
import { findAction } from '../../auth/ability.js';
import type { RelatedSpec } from '../ast.js';
import { FILE_UID, type Component, type ContentType } from '../../schema/types.js';
import { isObj, isPoison, textOf, type ParseContext } from './context.js';
import { parseFields } from './fields.js';
import { parseSort } from './sort.js';
// a fragment's fields and sort are reported under `populate`, as in a content populate
import { underPopulate } from './under-populate.js';

export type { RelatedSpec };

const RELATED = 'related';

export interface FilePopulate {
  /** the value `related` was given (true for a bare name or `*`), undefined when not asked */
  readonly related: unknown;
  /** the rest of the populate value, for the ordinary parser (which rejects unknown keys) */
  readonly rest: unknown;
}

/** Takes `related` (or `*`, which includes it) out of a files `populate` value. */
export function splitFilePopulate(raw: unknown): FilePopulate {
  if (typeof raw === 'string' || Array.isArray(raw)) {
    const names = (Array.isArray(raw) ? raw : [raw]).flatMap((v) => (typeof v === 'string' ? v.split(',') : [v]));
    const related = names.some((n) => n === RELATED || n === '*');
    const rest = names.filter((n) => n !== RELATED);
    // what is left of `*` (or `related,*`) is `*` itself, which stands alone
    return { related: related ? true : undefined, rest: rest.length === 0 ? undefined : rest.length === 1 && rest[0] === '*' ? '*' : rest };
  }
  if (raw !== null && typeof raw === 'object' && Object.hasOwn(raw, RELATED)) {
    const { [RELATED]: value, ...rest } = raw as Record<string, unknown>;
    return { related: value, rest: Object.keys(rest).length === 0 ? undefined : rest };
  }
  return { related: undefined, rest: raw };
}

function invalid(key: string, path: string): ValidationError {
  return ValidationError.invalidKey(key, path, 'query', 'populate');
}

function flag(v: unknown): boolean | null {
  if (v === true || v === 'true' || v === 't' || v === '1') return true;
  if (v === false || v === 'false' || v === 'f' || v === '0') return false;
  return null;
}

const FRAGMENT_KEYS: ReadonlySet<string> = new Set(['fields', 'filters', 'sort', 'populate', 'count']);

/** One `on` fragment: the fields shown for that type (null: all). */
function fragment(ctx: ParseContext, schema: ContentType | Component, value: unknown, at: string): string[] | null {
  // as in Strapi, even `false` names a type to show, with all its fields
  if (flag(value) !== null) return null;
  if (!isObj(value)) throw invalid(textOf(value), at);
  for (const k of Object.keys(value)) if (!FRAGMENT_KEYS.has(k)) throw invalid(k, at);
  for (const k of ['filters', 'populate']) {
    // Folio reads the linked rows by type without a query of their own: refused rather than ignored
    if (value[k] !== undefined) throw new ValidationError(`${k} is not supported in a populate[related][on] fragment`, { source: 'query', param: 'populate' });
  }
  // checked as Strapi checks it; the entries keep their link order, as Strapi's do
  if (value['sort'] !== undefined) underPopulate(() => parseSort(ctx, schema, value['sort']));
  return value['fields'] === undefined ? null : underPopulate(() => parseFields(ctx, schema, value['fields']));
}

/** The content types whose entries the caller may see listed: those it may `find`, as a direct read checks (a file is no entry). */
function readableTypes(ctx: ParseContext): ReadonlySet<string> {
  return new Set([...ctx.model.contentTypes.keys()].filter((uid) => uid !== FILE_UID && ctx.ability.can(findAction(uid))));
}

/**
 * The value of `populate[related]`: null when nothing is asked. An object takes only `on` and
 * `count`, anything else beside them being Strapi's nested-populate error naming the whole value.
 * `at` is where errors name it: `related` on the media library, `cover.populate.related` below a
 * content type's media attribute (Strapi's paths).
 */
export function parseRelated(ctx: ParseContext, value: unknown, at: string = RELATED): RelatedSpec | null {
  const spec = parsedRelated(ctx, value, at);
  // a caller who may find no content type gets no `related` key at all, as from Strapi 5.54 (not an empty list)
  return spec !== null && spec.readable.size === 0 ? null : spec;
}

function parsedRelated(ctx: ParseContext, value: unknown, at: string): RelatedSpec | null {
  const everything = (): RelatedSpec => ({ on: null, count: false, readable: readableTypes(ctx) });
  if (value === '*') return everything();
  const asked = flag(value);
  if (asked !== null) return asked ? everything() : null;
  if (!isObj(value)) throw invalid(RELATED, at);
  if (Object.keys(value).some((k) => k !== 'on' && k !== 'count')) {
    throw new ValidationError(`Invalid nested populate for file.${RELATED} (${FILE_UID}). Expected a fragment ("on") or "count" but found ${JSON.stringify(value)}`);
  }
  let count = false;
  if (value['count'] !== undefined) {
    const c = flag(value['count']);
    if (c === null) throw invalid('count', at);
    count = c;
  }
  let on: Map<string, string[] | null> | null = null;
  if (value['on'] !== undefined) {
    if (!isObj(value['on'])) throw invalid('on', at);
    on = new Map();
    for (const [uid, frag] of Object.entries(value['on'])) {
      const schema = isPoison(uid) ? undefined : (ctx.model.contentTypes.get(uid) ?? ctx.model.components.get(uid));
      if (!schema) throw invalid(uid, `${at}.on.${uid}`);
      const fields = fragment(ctx, schema, frag, at);
      // a kind the caller may not `find` is left out, as Strapi does (a component kind is found by
      // tokens that find everything only): its entries are not listed, even empty
      if (ctx.ability.can(findAction(uid))) on.set(uid, fields);
    }
  }
  // `{count: false}` alone asks for nothing, as in Strapi; nor do kinds the caller may not find
  if ((on === null || on.size === 0) && !count) return null;
  return { on, count, readable: readableTypes(ctx) };
}
