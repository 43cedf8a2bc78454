// Publishing copies a draft row onto its published row. The published row keeps its id (stable ids:
// the default list order stays defined), takes the draft's scalars and updatedAt, and gets a copy
// of the draft's components, relation links and media links.
import type { Model } from '../schema/types.js';
import type { ContentType } from '../schema/types.js';
import { copyChildren, deleteChildren } from './store/children.js';
import { insertRow, type Store } from './store/rows.js';
import { carryInverseLinks } from './store/inverse-links.js';

export async function publishDraft(s: Store, model: Model, type: ContentType, draftId: number, now: Date): Promise<number> {
  const draft = await s.tx.selectFrom(type.table).selectAll().where('id', '=', draftId).executeTakeFirstOrThrow() as Record<string, unknown>;
  let q = s.tx.selectFrom(type.table).select('id').where('document_id', '=', draft['document_id']).where('published_at', 'is not', null);
  if (type.localized) q = q.where('locale', '=', draft['locale']);
  const existing = await q.executeTakeFirst();
  const { id: _id, ...values } = draft;
  void _id;
  const published = { ...values, published_at: s.dialect.toDatetime(now) };
  if (existing) {
    const pubId = Number(existing.id);
    await s.tx.updateTable(type.table).set(published).where('id', '=', pubId).execute();
    await deleteChildren(s, model, type, [pubId]);
    await copyChildren(s, model, type, draftId, pubId);
    await carryInverseLinks(s, model, type, String(draft['document_id']), (draft['locale'] as string | null) ?? null);
    return pubId;
  }
  const pubId = await insertRow(s, type.table, published);
  await copyChildren(s, model, type, draftId, pubId);
  await carryInverseLinks(s, model, type, String(draft['document_id']), (draft['locale'] as string | null) ?? null);
  return pubId;
}
