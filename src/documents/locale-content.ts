// The documents written in one locale: counted before a locale is removed, and deleted with it
// when asked (a removed locale can no longer be read, so its versions would be unreachable).
import type { ContentType, Model } from '../schema/types.js';
import { deleteRows } from './store/children.js';
import type { Store, Tx } from './store/rows.js';

export interface LocaleContent {
  readonly type: ContentType;
  /** documents with a version in the locale */
  readonly documents: number;
}

export async function contentInLocale(db: Tx, model: Model, code: string): Promise<LocaleContent[]> {
  const out: LocaleContent[] = [];
  for (const type of model.contentTypes.values()) {
    if (!type.localized) continue;
    const row = await db
      .selectFrom(type.table)
      .select((eb) => eb.fn.count('document_id').distinct().as('n'))
      .where('locale', '=', code)
      .executeTakeFirst();
    const documents = Number(row?.n ?? 0);
    if (documents > 0) out.push({ type, documents });
  }
  return out;
}

/** Deletes every version in `code` of every localized type, with its components and links. */
export async function deleteLocaleContent(s: Store, model: Model, code: string): Promise<void> {
  for (const type of model.contentTypes.values()) {
    if (!type.localized) continue;
    // the versions are locked before anything hanging off them is read: a write of one of them (which
    // locks its document) ends first, and what it wrote is then found and deleted with the rest
    const versions = s.tx.selectFrom(type.table).select(['id', 'document_id']).where('locale', '=', code).orderBy('id');
    const rows = await (s.dialect.rowLocks ? versions.forUpdate() : versions).execute();
    if (rows.length === 0) continue;
    const ids = rows.map((r) => Number(r.id));
    await deleteRows(s, model, type, ids);
    const docs = [...new Set(rows.map((r) => String(r.document_id)))];
    const left = new Set((await s.tx.selectFrom(type.table).select('document_id').where('document_id', 'in', docs).execute()).map((r) => String(r.document_id)));
    const gone = docs.filter((d) => !left.has(d));
    for (const schema of [...model.contentTypes.values(), ...model.components.values()]) {
      for (const a of schema.attributes.values()) {
        if (a.kind !== 'relation' || !a.owner || a.target !== type.uid) continue;
        // links naming this locale explicitly (from non-localized sources), and links to documents now gone
        await s.tx.deleteFrom(a.linkTable).where('target_locale', '=', code).execute();
        if (gone.length) await s.tx.deleteFrom(a.linkTable).where('target_document_id', 'in', gone).execute();
      }
    }
  }
}
