// `fields` → selected scalar attribute names (behaviour.md §5.4). id and documentId always come back.
import { ValidationError } from '../../errors.js';
import type { Component, ContentType } from '../../schema/types.js';
import { isPoison, type ParseContext } from './context.js';
import { scalarField } from './field-ref.js';
import { isStrapiOnlyAttribute } from './strapi-only-attributes.js';

type Schema = ContentType | Component;

export function parseFields(_ctx: ParseContext, schema: Schema, raw: unknown): string[] | null {
  if (raw === undefined || raw === null) return null;
  let names: unknown[];
  if (typeof raw === 'string') {
    if (raw.trim() === '') throw new ValidationError('fields must name at least one attribute', { source: 'query', param: 'fields' });
    names = raw.split(',').map((s) => s.trim());
  } else if (Array.isArray(raw)) names = raw;
  else throw new ValidationError('fields must be a string or an array of strings', { source: 'query', param: 'fields' });
  if (names.length === 1 && names[0] === '*') return null;
  const out: string[] = [];
  for (const n of names) {
    if (typeof n !== 'string' || n === '') throw new ValidationError('fields must be a string or an array of strings', { source: 'query', param: 'fields' });
    if (n === '*') return null;
    if (isPoison(n)) throw ValidationError.invalidKey(n, null, 'query', 'fields');
    if (n === 'id' || n === 'documentId') continue;
    if (scalarField(schema, n)) {
      if (!out.includes(n)) out.push(n);
      continue;
    }
    const a = schema.attributes.get(n);
    throw ValidationError.invalidKey(n, a || isStrapiOnlyAttribute(schema, n) ? n : null, 'query', 'fields');
  }
  return out;
}
