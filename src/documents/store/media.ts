// Media attributes: the files linked to a row's media field, in order.
import { ValidationError } from '../../errors.js';
import type { MediaRef, WriteData } from '../input/types.js';
import { FILE_UID } from '../../schema/types.js';
import { insertLinks } from './deferred-links.js';
import { withRowLock } from './document-lock.js';
import { MissingRelationsError } from './missing-relations.js';
import type { Store } from './rows.js';

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
  const ids = [...byId];
  for (let from = 0; from < ids.length; from += FILES_PER_LOOKUP) {
    const part = ids.slice(from, from + FILES_PER_LOOKUP);
    for (const r of await withRowLock(s, s.tx.selectFrom(FILES).select('id').where('id', 'in', part), 'shared').execute()) cache.found.set(`#${Number(r.id)}`, Number(r.id));
    for (const id of part) cache.looked.add(`#${id}`);
  }
  const docs = [...byDoc];
  for (let from = 0; from < docs.length; from += FILES_PER_LOOKUP) {
    const part = docs.slice(from, from + FILES_PER_LOOKUP);
    for (const r of await withRowLock(s, s.tx.selectFrom(FILES).select(['id', 'document_id']).where('document_id', 'in', part), 'shared').execute()) {
      cache.found.set(String(r.document_id), Number(r.id));
    }
    for (const d of part) cache.looked.add(d);
  }
  return cache.found;
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
export async function setMedia(s: Store, relatedType: string, relatedId: number, field: string, refs: readonly MediaRef[] | null, isNew = false): Promise<void> {
  const ids = refs && refs.length ? await resolveFiles(s, refs) : [];
  if (!isNew) await s.tx.deleteFrom('files_related_mph').where('related_id', '=', relatedId).where('related_type', '=', relatedType).where('field', '=', field).execute();
  await insertLinks(
    s,
    'files_related_mph',
    ids.map((file_id, i) => ({ file_id, related_id: relatedId, related_type: relatedType, field, ord: i + 1 })),
    isNew,
  );
}
