// Media attributes: the files linked to a row's media field, in order.
import { ValidationError } from '../../errors.js';
import type { MediaRef, WriteData } from '../input/types.js';
import { FILE_UID } from '../../schema/types.js';
import { insertLinks } from './deferred-links.js';
import { withRowLock } from './document-lock.js';
import { MissingRelationsError } from './missing-relations.js';
import type { Store } from './rows.js';
import type { FileLookups } from './store.js';

const FILES = 'files';

const keyOf = (r: MediaRef): string | undefined => (r.id !== undefined ? `#${r.id}` : r.documentId);

/** ids per lookup, well within every dialect's bound parameters */
const FILES_PER_LOOKUP = 5000;

/**
 * Looks up the files `refs` name that this write hasn't looked up yet, in as few statements as their
 * number allows, and holds them shared until the write ends: a delete of one waits, then removes the new
 * link with the others, and a link made after a delete finds no file (a 400), as one after the other would.
 */
export async function lookUpFiles(s: Store, refs: readonly MediaRef[]): Promise<Map<string, number>> {
  const cache = s.files ?? { found: new Map<string, number>(), looked: new Set<string>() };
  const byId = new Set<number>();
  const byDoc = new Set<string>();
  for (const r of refs) {
    const k = keyOf(r);
    if (k === undefined || cache.looked.has(k)) continue;
    if (r.id !== undefined) byId.add(r.id);
    else byDoc.add(r.documentId!);
  }
  await lookUpBy(s, cache, 'id', [...byId], (id) => `#${id}`);
  await lookUpBy(s, cache, 'document_id', [...byDoc], String);
  return cache.found;
}

/** One column's lookups, FILES_PER_LOOKUP at a time, each file held shared; `key`: its key in the cache. */
async function lookUpBy<V extends number | string>(s: Store, cache: FileLookups, column: 'id' | 'document_id', values: readonly V[], key: (v: V) => string): Promise<void> {
  for (let from = 0; from < values.length; from += FILES_PER_LOOKUP) {
    const part = values.slice(from, from + FILES_PER_LOOKUP);
    const rows = await withRowLock(s, s.tx.selectFrom(FILES).select(['id', column]).where(column, 'in', part), 'shared').execute();
    for (const r of rows as Record<string, unknown>[]) cache.found.set(key(r[column] as V), Number(r['id']));
    for (const v of part) cache.looked.add(key(v));
  }
}

/** File row ids for refs given by id or documentId; unknown ones are a 400 like Strapi's. */
export async function resolveFiles(s: Store, refs: readonly MediaRef[]): Promise<number[]> {
  const found = await lookUpFiles(s, refs);
  // a documentId is looked up first, as Strapi turns documentIds into row ids before checking those
  const unknownDoc = refs.find((r) => r.id === undefined && r.documentId !== undefined && !found.has(r.documentId));
  if (unknownDoc !== undefined) throw new ValidationError(`Document with id "${unknownDoc.documentId}", locale "null" not found`);
  // a file named twice is linked once, where it is first named, and counted once when missing, as in Strapi 5.54
  const out = new Set<number>();
  const missing = new Set<number>();
  for (const r of refs) {
    const id = r.id !== undefined ? found.get(`#${r.id}`) : found.get(r.documentId ?? '');
    if (id !== undefined) out.add(id);
    else if (r.id !== undefined) missing.add(r.id);
  }
  if (missing.size) throw new MissingRelationsError(missing.size, FILE_UID);
  return [...out];
}

/** Every file a write's values name, its components' and zone entries' at any depth included. */
export function mediaRefsIn(data: WriteData, into: MediaRef[] = []): MediaRef[] {
  for (const refs of data.media.values()) if (refs) into.push(...refs);
  for (const v of data.components.values()) if (v) for (const c of Array.isArray(v) ? v : [v]) mediaRefsIn(c.data, into);
  for (const v of data.zones.values()) if (v) for (const e of v) mediaRefsIn(e.data, into);
  return into;
}

/** Replaces the files of one media field of a row (`isNew`: a row inserted by this write, with none yet). */
/** `order`: the row's place in its document's walk (walk-order.ts), which queued links are inserted in */
export async function setMedia(s: Store, relatedType: string, relatedId: number, field: string, refs: readonly MediaRef[] | null, isNew = false, order?: number): Promise<void> {
  const ids = refs && refs.length ? await resolveFiles(s, refs) : [];
  const links = ids.map((file_id, i) => ({ file_id, related_id: relatedId, related_type: relatedType, field, ord: i + 1 }));
  // a kept row of a component list: its links are replaced with the list's others (component-lists.ts)
  if (!isNew && s.deferred) s.deferred.replace('files_related_mph', { column: 'related_id', id: relatedId, scope: { related_type: relatedType, field } }, links, order);
  else {
    if (!isNew) await s.tx.deleteFrom('files_related_mph').where('related_id', '=', relatedId).where('related_type', '=', relatedType).where('field', '=', field).execute();
    await insertLinks(s, 'files_related_mph', links, isNew, order);
  }
}
