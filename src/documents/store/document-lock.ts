// One writer at a time per document. An update or publish reads the document's rows and decides
// from them what to write (update the draft or add a locale version, insert the published row or
// replace it); two writers deciding from the same rows both insert a published row. Locking the
// rows first, and reading them only afterwards (in a new statement, which sees the previous holder's
// commit), makes the second writer decide from what the first wrote. A document that has no rows
// has nothing to lock, and nothing to update either.
import { sql, type SelectQueryBuilder } from 'kysely';
import type { ContentType } from '../../schema/types.js';
import type { Store } from './rows.js';

/**
 * exclusive: one holder at a time (FOR UPDATE). shared: any number of holders, while a delete of
 * the rows, or an exclusive lock, waits for them all. writer: one holder at a time, which shared
 * holders don't wait for where the dialect has such a lock (Dialect.writerRowLock).
 */
export type LockMode = 'exclusive' | 'shared' | 'writer';

/**
 * The lock a write of the document takes first. A delete takes it exclusive (its rows go); an update
 * takes the dialect's writer lock, which writes linking to the document don't wait for: articles
 * setting each other's `related` in parallel deadlocked on PostgreSQL, each holding its own rows FOR
 * UPDATE while waiting to share the other's.
 */
export async function lockDocument(s: Store, type: ContentType, documentId: string, purpose: 'write' | 'delete' = 'write'): Promise<void> {
  await lockDocuments(s, type.table, [documentId], purpose === 'delete' ? 'exclusive' : 'writer');
}

/**
 * Locks the rows of documents a write links to: shared against their deletion (the delete, waiting,
 * then sees the new link and removes it; a link made after the delete finds the document gone), or
 * exclusive where each target has one holder, so that two writes taking one target from its holder
 * take it one after the other and the second sees the first's link. Answers the documents still
 * there once locked (a delete committed meanwhile took the others).
 */
export async function lockDocuments(s: Store, table: string, documentIds: readonly string[], mode: LockMode): Promise<Set<string>> {
  if (!s.dialect.rowLocks || documentIds.length === 0) return new Set(documentIds);
  return new Set((await lockedRows(s, table, documentIds, mode, false)).map((r) => String(r.document_id)));
}

/**
 * lockDocuments for a localized table, answering the locale versions still there once locked, as
 * `<documentId>\u0000<locale>`; null where nothing is locked (SQLite: no write runs beside another).
 */
export async function lockDocumentLocales(s: Store, table: string, documentIds: readonly string[], mode: LockMode): Promise<Set<string> | null> {
  if (!s.dialect.rowLocks || documentIds.length === 0) return null;
  return new Set((await lockedRows(s, table, documentIds, mode, true)).map((r) => `${String(r.document_id)}\u0000${String(r.locale)}`));
}

async function lockedRows(s: Store, table: string, documentIds: readonly string[], mode: LockMode, withLocale: boolean): Promise<Record<string, unknown>[]> {
  // in id order, so that two writers of the documents lock their rows in the same order
  return (await withRowLock(
    s,
    s.tx
      .selectFrom(table)
      .select(withLocale ? ['id', 'document_id', 'locale'] : ['id', 'document_id'])
      .where('document_id', 'in', [...new Set(documentIds)]),
    mode,
  ).execute()) as Record<string, unknown>[];
}

/**
 * Locks some rows of a table, in id order: a write that replaces what one of them links to (a to-one
 * owner linked from the other side) waits for another write doing the same, then reads its commit.
 * Answers the ids still there once locked (a concurrent delete may have taken some).
 */
export async function lockRows(s: Store, table: string, ids: readonly number[], mode: LockMode = 'exclusive'): Promise<Set<number>> {
  if (!s.dialect.rowLocks || ids.length === 0) return new Set(ids);
  const rows = await withRowLock(s, s.tx.selectFrom(table).select('id').where('id', 'in', ids), mode).execute();
  return new Set(rows.map((r) => Number(r.id)));
}

/**
 * Takes the writer lock of those documents no other writer holds now, without waiting for the others;
 * answers the documents locked. For work another writer of the document does itself when it runs (a
 * publish copying its draft's links), where waiting would close a cycle of writers each holding its own
 * document (articles published together, each naming the others as `related`).
 */
export async function lockFreeDocuments(s: Store, table: string, documentIds: readonly string[]): Promise<Set<string>> {
  if (!s.dialect.rowLocks || documentIds.length === 0) return new Set(documentIds);
  const rows = (await s.tx
    .selectFrom(table)
    .select(['id', 'document_id'])
    .where('document_id', 'in', [...new Set(documentIds)])
    .orderBy('id')
    .modifyEnd(sql.raw(`${s.dialect.writerRowLock} skip locked`))
    .execute()) as { document_id: unknown }[];
  return new Set(rows.map((r) => String(r.document_id)));
}

/**
 * A select of rows with the lock `mode` asks, taken in id order (so two writers lock the same rows in
 * the same order); unchanged where the dialect has no row locks.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the store's Kysely is untyped (store.ts Tx)
export function withRowLock<Q extends SelectQueryBuilder<any, any, any>>(s: Store, q: Q, mode: LockMode): Q {
  if (!s.dialect.rowLocks) return q;
  const ordered = q.orderBy('id');
  if (mode === 'exclusive') return ordered.forUpdate() as Q;
  return ordered.modifyEnd(sql.raw(mode === 'shared' ? s.dialect.sharedRowLock : s.dialect.writerRowLock)) as Q;
}
