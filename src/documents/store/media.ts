// Media attributes: the files linked to a row's media field, in order.
import { ValidationError } from '../../errors.js';
import type { MediaRef } from '../input/types.js';
import { FILE_UID } from '../../schema/types.js';
import { insertLinks } from './deferred-links.js';
import { withRowLock } from './document-lock.js';
import { MissingRelationsError } from './missing-relations.js';
import type { Store } from './rows.js';

const FILES = 'files';

/** File row ids for refs given by id or documentId; unknown ones are a 400 like Strapi's. */
export async function resolveFiles(s: Store, refs: readonly MediaRef[]): Promise<number[]> {
  // the files are held shared until this write ends: a delete of one waits, then removes the new link
  // with the others, and a link made after a delete finds no file (a 400), as one after the other would
  const byId = refs.filter((r) => r.id !== undefined).map((r) => r.id!);
  const byDoc = refs.filter((r) => r.id === undefined && r.documentId !== undefined).map((r) => r.documentId!);
  const found = new Map<string, number>();
  if (byId.length) {
    for (const r of await withRowLock(s, s.tx.selectFrom(FILES).select('id').where('id', 'in', byId), 'shared').execute()) found.set(`#${Number(r.id)}`, Number(r.id));
  }
  if (byDoc.length) {
    for (const r of await withRowLock(s, s.tx.selectFrom(FILES).select(['id', 'document_id']).where('document_id', 'in', byDoc), 'shared').execute()) {
      found.set(String(r.document_id), Number(r.id));
    }
  }
  // a documentId is looked up first, as Strapi turns documentIds into row ids before checking those
  const unknownDoc = byDoc.find((d) => !found.has(d));
  if (unknownDoc !== undefined) throw new ValidationError(`Document with id "${unknownDoc}", locale "null" not found`);
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
