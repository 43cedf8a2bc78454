// Changes to existing files: new information (name, alternativeText, caption, focalPoint), and
// deletion of the row, its links and every stored object (the original and its formats).
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../database/dialect.js';
import { writeTransaction } from '../../database/write-transaction.js';
import { lockRows } from '../../documents/store/document-lock.js';
import { scalarColumns } from '../../documents/store/rows.js';
import type { ContentType } from '../../schema/types.js';
import type { FileInfo } from './file-info.js';
import { readFile, type FileObject } from './file-row.js';
import { checkedName } from './names.js';
import type { UploadProvider } from './provider.js';
import { storedRefs } from './stored-refs.js';

/**
 * Applies the given values; null or absent ones keep what the file had (Strapi's rule, so a client
 * can send partial fileInfo). Returns the updated file, or null when there is no such file.
 */
export async function updateFileInfo(database: Database, type: ContentType, id: number, info: FileInfo): Promise<FileObject | null> {
  const changes = new Map<string, unknown>();
  if (info.name != null) changes.set('name', checkedName(info.name));
  if (info.alternativeText != null) changes.set('alternativeText', info.alternativeText);
  if (info.caption != null) changes.set('caption', info.caption);
  if (info.focalPoint != null) changes.set('focalPoint', info.focalPoint);
  const { dialect } = database;
  // read back in the update's transaction, which holds the row: the answer is this update's result,
  // not that of another update (or a delete) committed just after it. Rerun whole when the database
  // chose it to end a deadlock (with writes linking the file, which hold it shared)
  return writeTransaction(database, async (tx) => {
    await tx
      .updateTable(type.table)
      .set({ ...scalarColumns(dialect, type, changes), updated_at: dialect.toDatetime(new Date()) })
      .where('id', '=', id)
      .execute();
    // read back rather than trust the affected-row count (MySQL counts only rows that changed)
    return readFile(database, type, id, tx);
  });
}

/**
 * Deletes a file: row and links in one transaction, then its stored objects. Returns the file as it
 * was, or null when there is no such file. An object that can't be removed is logged: the row is
 * already gone, and a retry of the request would find nothing to delete.
 */
export async function deleteFile(database: Database, type: ContentType, provider: UploadProvider, id: number, log: FastifyBaseLogger): Promise<FileObject | null> {
  const file = await writeTransaction(database, async (tx) => {
    // the row is locked first, so the file answered is the one deleted: an update committed
    // meanwhile is in it, and one after waits and finds none. The lock is exclusive, so it also waits
    // for the writes linking the file (they hold it shared) and the links they made are deleted below
    await lockRows({ tx, dialect: database.dialect }, type.table, [id]);
    const found = await readFile(database, type, id, tx);
    if (!found) return null;
    await tx.deleteFrom('files_related_mph').where('file_id', '=', id).execute();
    const r = await tx.deleteFrom(type.table).where('id', '=', id).executeTakeFirst();
    return Number(r.numDeletedRows) > 0 ? found : null;
  });
  // a concurrent delete got there first: that request removes the objects and answers 200
  if (!file) return null;
  if (file['provider'] === provider.name) {
    await Promise.all(
      storedRefs(file).map((r) =>
        provider.remove(r).catch((e: unknown) => {
          log.error({ err: e, url: r.url }, "upload: could not remove a deleted file's stored object");
        }),
      ),
    );
  } else {
    log.warn({ id, provider: file['provider'] }, 'upload: file stored by another provider; its objects were left in place');
  }
  return file;
}
