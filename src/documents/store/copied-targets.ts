// Copying a row's links (publishing a draft, a new locale version taking the non-localized children)
// names documents and files the copy doesn't write. They are held shared first, as a write linking
// them holds them: a delete of one then either ended before (its links are gone from what is copied)
// or waits and removes the copies with the rest. Without it, a publish or a new locale racing a file's
// or a document's delete left links to it on PostgreSQL and MariaDB.
import { FILE_UID, MEDIA_LINK_TABLE, type Component, type ContentType, type Model } from '../../schema/types.js';
import { withRowLock } from './document-lock.js';
import { hasMedia, ownedRelations } from './owned-links.js';
import type { Store } from './rows.js';

/** A row whose links are copied; `only`: just those attributes' */
export interface LinkSource {
  readonly schema: ContentType | Component;
  readonly id: number;
  readonly only?: ReadonlySet<string> | undefined;
}

/** Holds (shared, in id order) the files and documents the links of `sources` name. */
export async function holdCopiedTargets(s: Store, model: Model, sources: readonly LinkSource[]): Promise<void> {
  if (!s.dialect.rowLocks || sources.length === 0) return;
  const files = model.contentTypes.get(FILE_UID);
  const withMedia = sources.filter((src) => hasMedia(src.schema, src.only));
  if (files && withMedia.length) {
    const linked = s.tx
      .selectFrom(MEDIA_LINK_TABLE)
      .select('file_id')
      .where((w) => w.or(withMedia.map((src) => w.and([w('related_type', '=', src.schema.uid), w('related_id', '=', src.id)]))));
    await withRowLock(s, s.tx.selectFrom(files.table).select('id').where('id', 'in', linked), 'shared').execute();
  }
  // the link tables that name documents of each target table, with the rows whose links they copy
  const byTarget = new Map<string, Map<string, number[]>>();
  for (const src of sources) {
    for (const a of ownedRelations(src.schema, src.only)) {
      const target = model.contentTypes.get(a.target);
      if (!target) continue;
      const tables = byTarget.get(target.table) ?? new Map<string, number[]>();
      byTarget.set(target.table, tables);
      tables.set(a.linkTable, [...(tables.get(a.linkTable) ?? []), src.id]);
    }
  }
  for (const [table, links] of byTarget) {
    const named = s.tx
      .selectFrom(table)
      .select('id')
      .where((eb) => eb.or([...links].map(([linkTable, ids]) => eb('document_id', 'in', eb.selectFrom(linkTable).select('target_document_id').where('source_id', 'in', ids)))));
    await withRowLock(s, named, 'shared').execute();
  }
}
