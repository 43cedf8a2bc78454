// What a files `populate` asks of `related`, the polymorphic link to entries and components: the
// whole list (`related`, `[related]=true`, `*`), or Strapi's morph forms — `on` fragments naming the
// linked types to show (each with its own `fields`) and `count`.
import { ValidationError } from '../../errors.js';
import { FILE_UID, type Component, type ContentType } from '../../schema/types.js';
import { isObj, isPoison, textOf, type ParseContext } from '../../query/parse/context.js';
import { parseFields } from '../../query/parse/fields.js';
import { parseSort } from '../../query/parse/sort.js';
// a fragment's fields and sort are reported under `populate`, as in a content populate
import { underPopulate } from '../../query/parse/populate.js';

const RELATED = 'related';

export interface RelatedSpec {
  /** the linked types to show, each with its field selection (null: all fields); null: every type */
  readonly on: ReadonlyMap<string, readonly string[] | null> | null;
  /** answer `{count}`, how many linked entries there are, instead of listing them */
  readonly count: boolean;
}

const EVERYTHING: RelatedSpec = { on: null, count: false };

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
function fragment(ctx: ParseContext, schema: ContentType | Component, value: unknown): string[] | null {
  // as in Strapi, even `false` names a type to show, with all its fields
  if (flag(value) !== null) return null;
  if (!isObj(value)) throw invalid(textOf(value), RELATED);
  for (const k of Object.keys(value)) if (!FRAGMENT_KEYS.has(k)) throw invalid(k, RELATED);
  for (const k of ['filters', 'populate']) {
    // Folio reads the linked rows by type without a query of their own: refused rather than ignored
    if (value[k] !== undefined) throw new ValidationError(`${k} is not supported in a populate[related][on] fragment`, { source: 'query', param: 'populate' });
  }
  // checked as Strapi checks it; the entries keep their link order, as Strapi's do
  if (value['sort'] !== undefined) underPopulate(() => parseSort(ctx, schema, value['sort']));
  return value['fields'] === undefined ? null : underPopulate(() => parseFields(ctx, schema, value['fields']));
}

/**
 * The value of `populate[related]`: null when nothing is asked. An object takes only `on` and
 * `count`, anything else beside them being Strapi's nested-populate error naming the whole value.
 */
export function parseRelated(ctx: ParseContext, value: unknown): RelatedSpec | null {
  if (value === '*') return EVERYTHING;
  const asked = flag(value);
  if (asked !== null) return asked ? EVERYTHING : null;
  if (!isObj(value)) throw invalid(RELATED, RELATED);
  if (Object.keys(value).some((k) => k !== 'on' && k !== 'count')) {
    throw new ValidationError(`Invalid nested populate for file.${RELATED} (${FILE_UID}). Expected a fragment ("on") or "count" but found ${JSON.stringify(value)}`);
  }
  let count = false;
  if (value['count'] !== undefined) {
    const c = flag(value['count']);
    if (c === null) throw invalid('count', RELATED);
    count = c;
  }
  let on: Map<string, string[] | null> | null = null;
  if (value['on'] !== undefined) {
    if (!isObj(value['on'])) throw invalid('on', RELATED);
    on = new Map();
    for (const [uid, frag] of Object.entries(value['on'])) {
      const schema = isPoison(uid) ? undefined : (ctx.model.contentTypes.get(uid) ?? ctx.model.components.get(uid));
      if (!schema) throw invalid(uid, `${RELATED}.on.${uid}`);
      on.set(uid, fragment(ctx, schema, frag));
    }
  }
  // `{count: false}` alone asks for nothing, as in Strapi
  if (on === null && !count) return null;
  return { on, count };
}
