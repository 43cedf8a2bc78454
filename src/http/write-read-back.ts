// A write answers with its document as its own transaction read it, unless that read passes the
// light allowance of the heavy-read gate (query/heavy-reads.ts). Kept inside the transaction, such a
// read holds the write's locks — on SQLite the whole database's — while it loads, and a burst of
// them held gigabytes at once, outside the gate every read goes through: 50 concurrent PUTs, each
// answering 40 MB of populated relations, took the server to 2.1 GB while a one-row read waited 17 s.
// Such a read stops, the write commits, and the document is read again holding a heavy slot.
import type { Services } from './services.js';
import type { ReadFn } from './gated-read.js';
import { HeavyRead, type ClientConnection, type ReadLease } from '../query/heavy-reads.js';

/** What a write's transaction read of its document: the answer, or only the document to read after the commit. */
export type WriteReadBack<T> = { readonly read: true; readonly value: T } | { readonly read: false; readonly documentId: string };

/** Runs a write's read back (inside its transaction) light; past the light allowance, leaves it for after the commit. */
export async function readInWrite<T>(documentId: string, read: () => Promise<T>): Promise<WriteReadBack<T>> {
  try {
    return { read: true, value: await read() };
  } catch (e) {
    if (e instanceof HeavyRead) return { read: false, documentId };
    throw e;
  }
}

/**
 * The answer of a committed write: what its transaction read, or the document read now, holding a
 * slot. Read now, it is the document as committed then, or as a later write left it (a document
 * deleted meanwhile reads as nothing). Lets the lease go on failure.
 */
export async function readAfterCommit<T>(
  services: Services,
  client: ClientConnection,
  lease: ReadLease,
  back: WriteReadBack<T>,
  reread: (documentId: string) => ReadFn<T>,
): Promise<T> {
  if (back.read) return back.value;
  try {
    await lease.takeSlot(client);
    return (await services.database.recordReads((db) => reread(back.documentId)(db, lease))).value;
  } catch (e) {
    lease.release();
    throw e;
  }
}
