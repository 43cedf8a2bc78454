// Where a file row says its objects are: the original's and each format's hash, extension, URL and
// folder, as the provider needs them to find an object again.
import type { FileObject } from './file-row.js';
import type { StoredRef } from './provider.js';

/** The object a file or format entry names, or null when the entry names none (no URL). */
export function storedRefOf(o: unknown): StoredRef | null {
  if (typeof o !== 'object' || o === null) return null;
  const r = o as Record<string, unknown>;
  if (typeof r['url'] !== 'string') return null;
  return { hash: String(r['hash'] ?? ''), ext: String(r['ext'] ?? ''), url: r['url'], path: typeof r['path'] === 'string' ? r['path'] : null };
}

/** Every object a file row names: the original, then its formats. */
export function storedRefs(file: FileObject): StoredRef[] {
  const formats = file['formats'];
  const entries = typeof formats === 'object' && formats !== null ? Object.values(formats) : [];
  return [file, ...entries].flatMap((o) => storedRefOf(o) ?? []);
}
