// Which columns a read selects for a schema and how a row becomes the object clients see.
// Built once per (schema, fields) and memoised: requests only look shapes up.
import { formatDatetime, formatterFor, type Formatter } from './format-value.js';
import type { Component, ContentType } from '../schema/types.js';

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

function slotsFor(schema: ContentType | Component, fields: readonly string[] | null): Slot[] {
  const slots: Slot[] = [];
  const isType = schema.modelType === 'contentType';
  const wanted = fields ? new Set(fields) : null;
  for (const name of schema.order) {
    const a = schema.attributes.get(name)!;
    if (a.kind !== 'scalar' || a.private) continue;
    if (wanted && !wanted.has(name)) continue;
    slots.push({ key: name, column: a.column, format: formatterFor(a.type) });
  }
  if (isType) {
    const system = ['createdAt', 'updatedAt', 'publishedAt', ...(schema.localized ? ['locale'] : [])];
    for (const s of system) if (!wanted || wanted.has(s)) slots.push(SYSTEM[s]!);
  }
  return slots;
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
  const isType = schema.modelType === 'contentType';
  const shape: RowShape = {
    columns: slots.map((s) => s.column),
    build(row) {
      const out: Record<string, unknown> = { id: Number(row['id']) };
      if (isType) out['documentId'] = row['document_id'];
      for (const s of slots) out[s.key] = s.format(row[s.column]);
      return out;
    },
  };
  bySchema.set(key, shape);
  return shape;
}
