// The data Strapi 5.54 puts in `details.errors[].value` of the root-level errors it raises while
// storing a write (a dynamic-zone entry it can't place, relations or files that don't exist): not
// the body's `data` but what it was about to store. A create adds the schema's defaults and empty
// lists for absent repeatable components and dynamic zones; relation and media values appear in
// their long form ({set: [{id}]}); then `publishedAt` (null for draft & publish types, whose writes go
// to the draft first; the time of the write otherwise) and the locale of a localized type. Where
// Strapi has turned documentIds into row ids, Folio keeps the documentIds (README).
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

function refForm(v: unknown): unknown {
  if (typeof v === 'number') return { id: v };
  if (typeof v === 'string') return { documentId: v };
  return v;
}

/** A list of references as Strapi normalises it: each in its object form, nulls left out. */
const refList = (v: unknown): unknown[] => (Array.isArray(v) ? v : [v]).filter((x) => x !== null).map(refForm);

/** A relation or media value in the long form Strapi stores it in. */
function longForm(v: unknown): unknown {
  if (v === null || v === undefined) return v;
  if (isObj(v) && OPERATIONS.some((k) => Object.hasOwn(v, k))) {
    const out: Obj = { ...v };
    for (const k of OPERATIONS) if (Object.hasOwn(v, k)) out[k] = refList(v[k]);
    return out;
  }
  return { set: refList(v) };
}

/** A zone entry as yup leaves it: a non-object is null, a numeric `__component` its text. */
function zoneEntry(v: unknown): unknown {
  if (!isObj(v)) return null;
  return typeof v['__component'] === 'number' ? { ...v, __component: String(v['__component']) } : v;
}

export function storedData(schema: Schema, data: Obj, write: WriteTarget | undefined, now: Date = new Date()): Obj {
  const out: Obj = {};
  if (write?.create) {
    for (const a of schema.attributes.values()) {
      if (Object.hasOwn(data, a.name)) continue;
      if (a.kind === 'scalar' && a.default !== undefined) out[a.name] = a.default;
      else if (a.kind === 'dynamiczone' || (a.kind === 'component' && a.repeatable)) out[a.name] = [];
    }
  }
  for (const [k, v] of Object.entries(data)) {
    const a = schema.attributes.get(k);
    if (a && (a.kind === 'relation' || a.kind === 'media')) out[k] = longForm(v);
    else if (a?.kind === 'dynamiczone' && Array.isArray(v)) out[k] = v.map(zoneEntry);
    else out[k] = v;
  }
  if ('draftAndPublish' in schema) out['publishedAt'] = schema.draftAndPublish ? null : now.toISOString();
  if (write?.locale !== undefined && write.locale !== null) out['locale'] = write.locale;
  return out;
}
