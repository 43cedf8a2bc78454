// Field names a query may use on a schema: attributes plus the system fields, resolved to columns
// from the model. Private attributes resolve to nothing, as if they didn't exist.
import type { FieldRef } from '../ast.js';
import type { Component, ContentType, ScalarAttribute } from '../../schema/types.js';

type Schema = ContentType | Component;

export function valueTypeOf(a: ScalarAttribute): FieldRef['valueType'] {
  switch (a.type) {
    case 'integer':
      return 'integer';
    case 'float':
    case 'decimal':
      return 'number';
    case 'biginteger':
      return 'biginteger';
    case 'boolean':
      return 'boolean';
    case 'date':
      return 'date';
    case 'time':
      return 'time';
    case 'datetime':
    case 'timestamp':
      return 'datetime';
    case 'json':
    case 'blocks':
      // scalars to Strapi: selectable, sortable and filterable as their stored JSON text
      return 'json';
    default:
      return 'string';
  }
}

const ID: FieldRef = { column: 'id', valueType: 'integer' };
// a Map: names come from clients, and `sort=toString` must not find Object.prototype's member
const SYSTEM: ReadonlyMap<string, FieldRef> = new Map<string, FieldRef>([
  ['documentId', { column: 'document_id', valueType: 'string' }],
  ['createdAt', { column: 'created_at', valueType: 'datetime' }],
  ['updatedAt', { column: 'updated_at', valueType: 'datetime' }],
  ['publishedAt', { column: 'published_at', valueType: 'datetime' }],
]);

/** The column behind a scalar field name, or null when the name isn't a usable scalar field. */
export function scalarField(schema: Schema, name: string): FieldRef | null {
  if (name === 'id') return ID;
  if (schema.modelType === 'contentType') {
    const system = SYSTEM.get(name);
    if (system) return system;
    if (name === 'locale' && schema.localized) return { column: 'locale', valueType: 'string' };
  }
  const a = schema.attributes.get(name);
  if (!a || a.kind !== 'scalar' || a.private) return null;
  return { column: a.column, valueType: valueTypeOf(a) };
}

export function isSystemField(schema: Schema, name: string): boolean {
  return name === 'id' || (schema.modelType === 'contentType' && (SYSTEM.has(name) || (name === 'locale' && schema.localized)));
}
