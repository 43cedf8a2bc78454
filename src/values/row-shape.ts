// Which columns a read selects for a schema and how a row becomes the object clients see.
// Built once per (schema, fields) and memoised: requests only look shapes up.
import { formatDatetime, formatterFor, type Formatter } from './format-value.js';
import type { Component, ContentType, ScalarType } from '../schema/types.js';
import { storedJsonForResponse } from './stored-json.js';

export interface RowShape {
  /** columns to select, besides `id` (and `document_id` on content types) which are always read */
  readonly columns: readonly string[];
  /** builds the output object; populated keys are appended by the caller */
  build(row: Record<string, unknown>): Record<string, unknown>;
}

interface Slot {
  readonly key: string;
  readonly column: string;
  readonly format: Formatter;
}

const SYSTEM: Record<string, Slot> = {
  createdAt: { key: 'createdAt', column: 'created_at', format: formatDatetime },
  updatedAt: { key: 'updatedAt', column: 'updated_at', format: formatDatetime },
  publishedAt: { key: 'publishedAt', column: 'published_at', format: formatDatetime },
  locale: { key: 'locale', column: 'locale', format: (v) => v ?? null },
};

const cache = new WeakMap<ContentType | Component, Map<string, RowShape>>();

function systemNames(schema: ContentType | Component): string[] {
  if (schema.modelType !== 'contentType') return [];
  return ['createdAt', 'updatedAt', 'publishedAt', ...(schema.localized ? ['locale'] : [])];
}

/**
 * json and blocks values of the application's types and components are only ever written out, so
 * they are kept as their stored text (stored-json.ts); the plugins' types keep parsed values, which
 * the server itself reads (a file's formats, to sign or delete them).
 */
function formatterOf(schema: ContentType | Component, type: ScalarType): Formatter {
  const onlyWrittenOut = schema.modelType === 'component' || schema.origin === 'api';
  return onlyWrittenOut && (type === 'json' || type === 'blocks') ? storedJsonForResponse : formatterFor(type);
}

function slotOf(schema: ContentType | Component, name: string): Slot | null {
  const a = schema.attributes.get(name);
  if (a) return a.kind === 'scalar' && !a.private ? { key: name, column: a.column, format: formatterOf(schema, a.type) } : null;
  return systemNames(schema).includes(name) ? SYSTEM[name]! : null;
}

/**
 * Every scalar in schema order, then the system fields (one the schema declares stays where it is declared);
 * or, when `fields` names some, those in the order named, as Strapi returns them (after id and documentId,
 * which always lead).
 */
function slotsFor(schema: ContentType | Component, fields: readonly string[] | null): Slot[] {
  const names = fields ?? [...(schema.fieldOrder ?? schema.order), ...systemNames(schema)];
  const slots: Slot[] = [];
  for (const name of names) {
    const slot = slotOf(schema, name);
    if (slot && !slots.some((s) => s.key === name)) slots.push(slot);
  }
  return slots;
}

/**
 * The output object built by one object literal compiled per shape: every object of a shape then
 * shares one hidden class from its creation, where assigning keys one by one in a loop went through
 * generic keyed stores (the row builder was 5 % of an uncached list's CPU). Keys and columns are
 * JSON-quoted, never spliced raw.
 */
function compileBuild(slots: readonly Slot[], isType: boolean): (row: Record<string, unknown>) => Record<string, unknown> {
  const keys = ['id', ...(isType ? ['documentId'] : []), ...slots.map((s) => s.key)];
  // in an object literal `"__proto__": x` would set the prototype instead of a key
  if (new Set(keys).size !== keys.length || keys.includes('__proto__')) {
    return (row) => {
      const out: Record<string, unknown> = Object.create(Object.prototype) as Record<string, unknown>;
      Object.defineProperty(out, 'id', { value: Number(row['id']), enumerable: true, writable: true, configurable: true });
      if (isType) out['documentId'] = row['document_id'];
      for (const s of slots) Object.defineProperty(out, s.key, { value: s.format(row[s.column]), enumerable: true, writable: true, configurable: true });
      return out;
    };
  }
  const props = [
    `"id": Number(row["id"])`,
    ...(isType ? [`"documentId": row["document_id"]`] : []),
    ...slots.map((s, i) => `${JSON.stringify(s.key)}: f[${i}](row[${JSON.stringify(s.column)}])`),
  ];
  const make = new Function('f', `return function build(row) { return { ${props.join(', ')} }; };`) as (
    f: readonly Formatter[],
  ) => (row: Record<string, unknown>) => Record<string, unknown>;
  return make(slots.map((s) => s.format));
}

export function rowShape(schema: ContentType | Component, fields: readonly string[] | null): RowShape {
  let bySchema = cache.get(schema);
  if (!bySchema) {
    bySchema = new Map();
    cache.set(schema, bySchema);
  }
  const key = fields ? fields.join(',') : '*';
  const hit = bySchema.get(key);
  if (hit) return hit;
  const slots = slotsFor(schema, fields);
  const shape: RowShape = {
    columns: slots.map((s) => s.column),
    build: compileBuild(slots, schema.modelType === 'contentType'),
  };
  bySchema.set(key, shape);
  return shape;
}
