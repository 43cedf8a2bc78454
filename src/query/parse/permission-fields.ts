// `fields` of a populated role's permissions (`populate[role][populate][permissions][fields]`): the
// permission's own fields, as Strapi names them.
import { ValidationError } from '../../errors.js';
import { INVALID_FIELDS } from './fields.js';

/** A permission's fields besides id and documentId, which always come back, in the order Strapi shows them. */
export const PERMISSION_FIELDS: readonly string[] = ['action', 'createdAt', 'updatedAt', 'publishedAt'];

export function permissionFields(raw: unknown): string[] | null {
  const names = typeof raw === 'string' ? raw.split(',').map((s) => s.trim()) : Array.isArray(raw) ? raw : null;
  if (names === null || !names.every((n) => typeof n === 'string')) throw new ValidationError(INVALID_FIELDS);
  if (names.includes('*')) return null;
  const out: string[] = [];
  for (const n of names) {
    if (n === '') throw ValidationError.invalidKey('', null, 'query', 'fields');
    if (n === 'id' || n === 'documentId') continue;
    // an array's includes, not an object's keys: `toString` is no field here
    if (!PERMISSION_FIELDS.includes(n)) throw ValidationError.invalidKey(n, n === 'role' ? n : null, 'query', 'fields');
    if (!out.includes(n)) out.push(n);
  }
  return out;
}
