// Request bodies and queries made from a model alone, so a test can drive every content type of a
// project it has never seen: a valid value for each scalar (within its type's and the schema's
// bounds), one item for each component, a dynamic zone entry of each component the zone allows
// (nested as the schema nests them, as many as the zone's min and max allow), a file for each media
// field when one is given, and a populate that reaches every component, zone entry, relation and
// media field. Text with a `regex` is made from the pattern, within the field's length bounds.
import RandExp from 'randexp';
import type { Attribute, Component, ContentType, Model, ScalarAttribute, Schema } from '../../src/schema/types.js';

type Obj = Record<string, unknown>;

export interface BodyOptions {
  /** an uploaded file's id, linked from every media field (relations are linked by the caller) */
  readonly fileId?: number;
}

/** Nesting beyond this many component levels is left out (real schemas rarely go deeper). */
const MAX_DEPTH = 4;

let counter = 0;

/** repetitions a `*` or `+` may take beyond its minimum while looking for a text that fits */
const MAX_EXTRA_REPEATS = 20;

/**
 * A text the attribute's `regex` matches, within its length bounds, different for different n (the
 * choices are n-th ones, not random, so a run is repeatable); undefined when no attempt fits.
 */
function regexText(a: ScalarAttribute, pattern: string, n: number): string | undefined {
  const re = new RegExp(pattern);
  const gen = new RandExp(re);
  gen.max = MAX_EXTRA_REPEATS;
  const [min, max] = [a.minLength ?? 0, a.maxLength ?? 255];
  for (let k = 0; k < 64; k++) {
    gen.randInt = (from, to) => from + ((n + k) % (to - from + 1));
    const v = gen.gen();
    if (v.length >= min && v.length <= max && re.test(v)) return v;
  }
  return undefined;
}

function fitText(a: ScalarAttribute, text: string): string {
  if (a.regex !== undefined) return regexText(a, a.regex, counter) ?? text;
  let v = text;
  if (a.minLength !== undefined && v.length < a.minLength) v = v.padEnd(a.minLength, '.');
  const max = a.maxLength ?? 255;
  return v.length > max ? v.slice(0, max) : v;
}

function numberIn(a: ScalarAttribute): number {
  const low = a.min ?? 1;
  return a.max !== undefined && a.max < low ? a.max : Math.ceil(low);
}

/** A value the attribute accepts, different on each call where the type allows (uids stay unique). */
export function scalarValue(a: ScalarAttribute): unknown {
  const n = ++counter;
  switch (a.type) {
    case 'string':
    case 'text':
    case 'richtext':
      return fitText(a, `${a.name} value ${n}`);
    case 'uid':
      return fitText(a, `${a.name.toLowerCase()}-${n}`);
    case 'email':
      return `user${n}@example.com`;
    case 'password':
      return fitText(a, `secret-${n}-password`);
    case 'enumeration':
      return a.enum?.[0];
    case 'integer':
    case 'biginteger':
    case 'float':
    case 'decimal':
      return numberIn(a);
    case 'boolean':
      return true;
    case 'date':
      return '2024-05-06';
    case 'time':
      return '10:20:30.000';
    case 'datetime':
    case 'timestamp':
      return '2024-05-06T07:08:09.000Z';
    case 'json':
      return { n };
    case 'blocks':
      return [{ type: 'paragraph', children: [{ type: 'text', text: `text ${n}` }] }];
  }
}

function componentBody(model: Model, comp: Component, depth: number, opts: BodyOptions): Obj {
  return attributesBody(model, comp, depth + 1, () => true, opts);
}

function attributeValue(model: Model, a: Attribute, depth: number, opts: BodyOptions): unknown {
  switch (a.kind) {
    case 'scalar':
      // non-writable fields are the server's, and private ones are left to their defaults unless the
      // schema requires them (a create without one fails)
      return !a.writable || (a.private && !a.required) ? undefined : scalarValue(a);
    case 'component': {
      const comp = model.components.get(a.component);
      if (!comp || (depth >= MAX_DEPTH && !a.required)) return undefined;
      const item = componentBody(model, comp, depth, opts);
      return a.repeatable ? Array.from({ length: Math.max(1, a.min ?? 1) }, () => componentBody(model, comp, depth, opts)) : item;
    }
    case 'dynamiczone': {
      if (depth >= MAX_DEPTH && !a.required && !a.min) return undefined;
      const comps = a.components.map((uid) => model.components.get(uid)).filter((c) => c !== undefined);
      // one entry of each allowed component, cut to the zone's max, and repeated round to its min
      const count = Math.min(Math.max(comps.length, a.min ?? 0, a.required ? 1 : 0), a.max ?? Infinity);
      if (comps.length === 0) return [];
      return Array.from({ length: count }, (_, i) => {
        const comp = comps[i % comps.length]!;
        return { __component: comp.uid, ...componentBody(model, comp, depth, opts) };
      });
    }
    case 'media':
      if (opts.fileId === undefined) return undefined;
      return a.multiple ? [opts.fileId] : opts.fileId;
    case 'relation':
      // relations are linked by the caller (they need a document of the target type)
      return undefined;
  }
}

function attributesBody(model: Model, schema: Schema, depth: number, keep: (a: Attribute) => boolean, opts: BodyOptions): Obj {
  const out: Obj = {};
  for (const a of schema.attributes.values()) {
    if (!keep(a)) continue;
    const v = attributeValue(model, a, depth, opts);
    if (v !== undefined) out[a.name] = v;
  }
  return out;
}

/** A create body's `data` for the type: every writable scalar, component, dynamic zone and (given a file) media field filled. */
export function createBody(model: Model, type: ContentType, opts: BodyOptions = {}): Obj {
  return attributesBody(model, type, 0, () => true, opts);
}

/** The body of a new locale version: the localized fields only (the others are shared). */
export function localeBody(model: Model, type: ContentType, opts: BodyOptions = {}): Obj {
  return attributesBody(model, type, 0, (a) => a.localized, opts);
}

/** A populate object reaching every component (and its nested ones), zone entry, relation and media field. */
export function deepPopulate(model: Model, schema: Schema, depth = 0): Obj {
  const out: Obj = {};
  for (const a of schema.attributes.values()) {
    if (a.private) continue;
    if (a.kind === 'relation' || a.kind === 'media') out[a.name] = true;
    else if (a.kind === 'component') {
      const comp = model.components.get(a.component);
      if (!comp) continue;
      const inner = depth < MAX_DEPTH ? deepPopulate(model, comp, depth + 1) : {};
      out[a.name] = Object.keys(inner).length ? { populate: inner } : true;
    } else if (a.kind === 'dynamiczone') {
      const on: Obj = {};
      for (const uid of a.components) {
        const comp = model.components.get(uid);
        if (!comp) continue;
        const inner = depth < MAX_DEPTH ? deepPopulate(model, comp, depth + 1) : {};
        on[uid] = Object.keys(inner).length ? { populate: inner } : true;
      }
      out[a.name] = { on };
    }
  }
  return out;
}

/** The first public text-like scalar of a type, to filter and sort by; undefined when it has none. */
export function filterAttribute(type: ContentType): ScalarAttribute | undefined {
  for (const a of type.attributes.values()) {
    if (a.kind === 'scalar' && !a.private && a.writable && ['string', 'text', 'email', 'uid', 'enumeration'].includes(a.type)) return a;
  }
  return undefined;
}
