// The data Strapi 5.54 puts in `details.errors[].value` of the root-level errors it raises while
// storing a write (a dynamic-zone entry it can't place, relations or files that don't exist): not
// the body's `data` but what it was about to store. A create adds the schema's defaults and empty
// lists for absent repeatable components and dynamic zones; relation and media values appear in
// their long form ({set: [{id}]}), inside components and zone entries too; then `publishedAt` (null for draft & publish types, whose writes go
// to the draft first; the time of the write otherwise) and the locale of a localized type. Where
// Strapi has turned documentIds into row ids, Folio keeps the documentIds (README).
import { linklessRelation, type Model } from '../../schema/types.js';
import { zoneComponents } from '../../schema/zone.js';
import type { Schema } from './walk.js';

type Obj = Record<string, unknown>;

/** What the write is: a create fills in defaults; a localized type's data carries its locale. */
export interface WriteTarget {
  readonly create: boolean;
  readonly locale: string | null;
  /**
   * Strapi checks the body in one pass, types and publish rules together: a type without draft &
   * publish. (A draft & publish type's body is checked as a draft first; its publish rules only
   * once that passes.)
   */
  readonly singlePass?: boolean;
}

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

const OPERATIONS = ['connect', 'disconnect', 'set'];

/** A reference in its object form; `files` reads a string of digits as a row id, as Strapi's media do. */
function refForm(v: unknown, files: boolean): unknown {
  if (typeof v === 'number') return { id: v };
  if (typeof v === 'string') return files && /^\d+$/.test(v) ? { id: v } : { documentId: v };
  return v;
}

/** A list of references as Strapi normalises it: each in its object form, nulls left out. */
const refList = (v: unknown, files: boolean): unknown[] => (Array.isArray(v) ? v : [v]).filter((x) => x !== null).map((x) => refForm(x, files));

/** A relation or media value in the long form Strapi stores it in; a to-one relation keeps the last of a list it is given. */
function longForm(v: unknown, files: boolean, toOne: boolean): unknown {
  if (v === null || v === undefined) return v;
  const list = (x: unknown, op: string): unknown[] => (toOne && op !== 'disconnect' ? refList(x, files).slice(-1) : refList(x, files));
  if (isObj(v) && OPERATIONS.some((k) => Object.hasOwn(v, k))) {
    const out: Obj = { ...v };
    for (const k of OPERATIONS) if (Object.hasOwn(v, k)) out[k] = list(v[k], k);
    return out;
  }
  return { set: list(v, 'set') };
}

/** The keys of `data` (a body, a component value or a zone entry) with relations and files in long form, components within too. */
function longForms(model: Model, schema: Schema, data: Obj): Obj {
  const out: Obj = {};
  for (const [k, v] of Object.entries(data)) {
    // a relation that can hold no link is still echoed as the relation it is
    const a = schema.attributes.get(k) ?? linklessRelation(schema, k);
    if (a?.kind === 'relation' || a?.kind === 'media') out[k] = longForm(v, a.kind === 'media', a.kind === 'relation' && !a.toMany);
    else if (a?.kind === 'component') {
      const comp = model.components.get(a.component);
      const one = (x: unknown): unknown => (comp && isObj(x) ? longForms(model, comp, x) : x);
      out[k] = Array.isArray(v) ? v.map(one) : one(v);
    } else if (a?.kind === 'dynamiczone' && Array.isArray(v)) out[k] = v.map((x) => zoneEntry(model, zoneComponents(a), x));
    else out[k] = v;
  }
  return out;
}

/**
 * A zone entry as yup leaves it: a non-object is null, a numeric `__component` its text; the
 * references of a component the zone lists in long form (one it can't place is left as sent).
 */
function zoneEntry(model: Model, allowed: readonly string[], v: unknown): unknown {
  if (!isObj(v)) return null;
  const entry = typeof v['__component'] === 'number' ? { ...v, __component: String(v['__component']) } : v;
  const uid = entry['__component'];
  const comp = typeof uid === 'string' && allowed.includes(uid) ? model.components.get(uid) : undefined;
  return comp ? longForms(model, comp, entry) : entry;
}

export function storedData(model: Model, schema: Schema, data: Obj, write: WriteTarget | undefined, now: Date = new Date()): Obj {
  const out: Obj = {};
  if (write?.create) {
    for (const a of schema.attributes.values()) {
      if (Object.hasOwn(data, a.name)) continue;
      if (a.kind === 'scalar' && a.default !== undefined) out[a.name] = a.default;
      else if (a.kind === 'dynamiczone' || (a.kind === 'component' && a.repeatable)) out[a.name] = [];
    }
  }
  Object.assign(out, longForms(model, schema, data));
  if ('draftAndPublish' in schema) out['publishedAt'] = schema.draftAndPublish ? null : now.toISOString();
  if (write?.locale !== undefined && write.locale !== null) out['locale'] = write.locale;
  return out;
}
