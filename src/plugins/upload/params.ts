// The upload route's own parameters: `?id=` and the `path` form field.
import { ValidationError } from '../../errors.js';
import { single } from './link.js';
import type { UploadProvider } from './provider.js';
import { pathRowId } from '../../documents/input/path-row-id.js';

/** A file's row id in any number form Strapi reads (`1.0`, ` 1`, `1e0`), or null (a documentId or anything else finds no file). */
export function numericId(raw: unknown): number | null {
  return typeof raw === 'string' ? (pathRowId(raw) ?? null) : null;
}

/** `?id=` of POST /api/upload: absent → undefined; anything but one value → 400. */
export function updateId(query: Record<string, unknown>): string | undefined {
  const raw = query['id'];
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string' || raw === '') throw new ValidationError('File id is required and must be a single value');
  return raw;
}

/** `path` (a folder inside an object store): plain segments only; the local provider ignores it. */
export function storagePath(fields: ReadonlyMap<string, readonly string[]>, provider: UploadProvider): string | null {
  const raw = single(fields, 'path');
  if (raw === undefined || raw === '') return null;
  const segments = raw.split('/');
  if (raw.length > 200 || segments.some((s) => !/^[A-Za-z0-9_-][A-Za-z0-9_.-]*$/.test(s) || s.includes('..'))) {
    throw new ValidationError('path must be folder names (letters, digits, "_", "-", ".") separated by "/"');
  }
  return provider.name === 'local' ? null : raw;
}
