// A write naming admin panel users through a relation to `admin::user`. Folio has none to link (see
// schema/admin-user.ts), so it answers what Strapi answers for users that don't exist: a documentId is
// "not found" (set, connect or disconnect), and row ids to link are missing relations. Emptying the
// relation (null, [], a disconnect by row id) is accepted and changes nothing.
import type { RelationAttribute } from '../../schema/types.js';
import type { RelationOp, RelationRef } from '../input/types.js';
import { MissingRelationsError } from './missing-relations.js';
import { notFound } from './targets.js';

export function refuseAdminLinks(attr: RelationAttribute, op: RelationOp): void {
  const linked: readonly RelationRef[] = op.kind === 'set' ? op.items : op.connect;
  const named = op.kind === 'set' ? op.items : [...op.connect, ...op.disconnect];
  const byDocument = named.find((r) => r.documentId !== undefined);
  if (byDocument) throw notFound(byDocument.documentId!, null);
  const ids = new Set(linked.map((r) => r.id));
  if (ids.size) throw new MissingRelationsError(ids.size, attr.target);
}
