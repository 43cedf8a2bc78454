// A DELETE may carry `filters`, `_q` or `publicationFilter`: Strapi 5.54 deletes nothing when they don't
// match the document. The condition is checked in the delete's transaction, once the document is locked.
import type { FindQuery, Status } from '../query/ast.js';
import type { ContentType } from '../schema/types.js';
import type { ReadContext } from '../query/sql/find.js';
import type { Tx } from '../documents/store/rows.js';
import { readDocument } from '../documents/read.js';
import { onConnection } from '../database/write-transaction.js';

/** What the document must match to be deleted, or undefined when the query asks nothing. Without a publication filter any version may match. */
export function deleteCondition(read: ReadContext, type: ContentType, documentId: string, q: FindQuery): ((tx: Tx) => Promise<boolean>) | undefined {
  if (q.where === null && q.search === null && q.publicationFilter === null) return undefined;
  const statuses: Status[] = type.draftAndPublish && q.publicationFilter === null ? ['published', 'draft'] : [q.status];
  return async (tx) => {
    for (const status of statuses) {
      const probe: FindQuery = { ...q, status, fields: [], populate: new Map() };
      if (await readDocument({ ...read, database: onConnection(read.database, tx) }, type, documentId, probe)) return true;
    }
    return false;
  };
}
