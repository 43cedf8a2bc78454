// A write answers with its document as its own transaction read it. A read back past the light
// allowance of the heavy-read gate (query/heavy-reads.ts) was answered from there too, outside the gate
// every read goes through, and a burst of them held gigabytes at once: 50 concurrent PUTs, each
// answering 40 MB of populated relations, took the server to 2.1 GB while a one-row read waited 17 s.
// Such a read is now made in full inside the transaction only to learn that it stays within the
// populate budget (a populate past it is a 400 before the commit, leaving nothing written, as it always
// was); what it loaded is dropped, the write commits, and the answer is read again holding a slot.
import type { Services } from './services.js';
import type { ReadFn } from './gated-read.js';
import { HeavyRead, type ClientConnection, type ReadLease } from '../query/heavy-reads.js';

/** What a write's transaction read of its document: the answer, or only the document to read after the commit. */
export type WriteReadBack<T> = { readonly read: true; readonly value: T } | { readonly read: false; readonly documentId: string };

/**
 * Runs a write's read back inside its transaction, light. Past the light allowance it is read once more
 * there with the whole populate budget and what it loaded dropped: a populate past the budget is then
 * a 400 before the commit, leaving nothing written, as it always was; the answer itself is read after
 * the commit. `read(true)`: the light read; `read(false)`: the whole budget's.
 */
export async function readInWrite<T>(documentId: string, read: (light: boolean) => Promise<T>): Promise<WriteReadBack<T>> {
  try {
    return { read: true, value: await read(true) };
  } catch (e) {
    if (!(e instanceof HeavyRead)) throw e;
  }
  await read(false);
  return { read: false, documentId };
}

/**
 * The answer of a committed write: what its transaction read, or the document read now, holding a
 * slot it waits for as long as it takes (a 503 would tell the client to send the write again). Read
 * now, it is the document as committed then, or as a later write left it (a document deleted
 * meanwhile reads as nothing). Lets the lease go on failure.
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
    await lease.takeSlot(client, true);
    return (await services.database.recordReads((db) => reread(back.documentId)(db, lease))).value;
  } catch (e) {
    lease.release();
    throw e;
  }
}
