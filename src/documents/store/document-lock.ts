// One writer at a time per document. An update or publish reads the document's rows and decides
// from them what to write (update the draft or add a locale version, insert the published row or
// replace it); two writers deciding from the same rows both insert a published row. Locking the
// rows first, and reading them only afterwards (in a new statement, which sees the previous holder's
// commit), makes the second writer decide from what the first wrote. A document that has no rows
// has nothing to lock, and nothing to update either.
import type { ContentType } from '../../schema/types.js';
import type { Store } from './rows.js';

export async function lockDocument(s: Store, type: ContentType, documentId: string): Promise<void> {
  if (!s.dialect.rowLocks) return;
  // in id order, so that two writers of the document lock its rows in the same order
  await s.tx.selectFrom(type.table).select('id').where('document_id', '=', documentId).orderBy('id').forUpdate().execute();
}

/**
 * Locks some rows of a table, in id order: a write that replaces what one of them links to (a to-one
 * owner linked from the other side) waits for another write doing the same, then reads its commit.
 */
export async function lockRows(s: Store, table: string, ids: readonly number[]): Promise<void> {
  if (!s.dialect.rowLocks || ids.length === 0) return;
  await s.tx.selectFrom(table).select('id').where('id', 'in', ids).orderBy('id').forUpdate().execute();
}
