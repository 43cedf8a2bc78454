// Strapi checks that the row ids a write body names exist in the same yup pass that checks its
// values (a test on the whole body), so a body with a bad value and a row id naming no row gets both
// errors. Folio's writer finds missing ids only once the values pass; when they don't, this finds
// them without writing: the first target type (in schema order, components at their attribute's
// place) naming rows that don't exist, as Strapi's relation store reports them.
import { mediaRefs } from '../input/media-payload.js';
import { pathText } from '../input/messages.js';
import { relationOp } from '../input/relation-payload.js';
import { isObj, type Obj, type Schema } from '../input/walk.js';
import { FILE_UID, type Model, type RelationAttribute } from '../../schema/types.js';
import { FILES_TABLE } from '../../plugins/upload/file-row.js';
import type { Tx } from './rows.js';
import { nestedItems, readable } from './missing-documents.js';
import { MissingRelationsError } from './missing-relations.js';

interface Target {
  /** null: a type Folio never stores (the admin panel's users), where no id names a row */
  readonly table: string | null;
  readonly ids: Set<number>;
}

/** ids per lookup, as SQLite binds at most so many values in one statement */
const IDS_PER_LOOKUP = 1000;

function add(targets: Map<string, Target>, uid: string, table: string | null, ids: readonly (number | undefined)[]): void {
  const t = targets.get(uid) ?? { table, ids: new Set<number>() };
  targets.set(uid, t);
  for (const id of ids) if (id !== undefined) t.ids.add(id);
}

/** The row ids a relation value links (a disconnect naming no row is ignored, as in Strapi 5.54). */
function linkedIds(a: RelationAttribute, value: unknown, p: readonly string[]): (number | undefined)[] {
  const op = readable(() => relationOp(a, value, pathText(p)));
  const refs = !op ? [] : op.kind === 'set' ? op.items : op.connect;
  return refs.filter((r) => r.documentId === undefined).map((r) => r.id);
}

function collect(model: Model, schema: Schema, data: Obj, path: string[], targets: Map<string, Target>): void {
  // in schema order, a relation to the admin panel's users in its place (it names ids no row has)
  for (const name of schema.populateOrder ?? schema.order) {
    const value = Object.hasOwn(data, name) ? data[name] : undefined;
    if (value === undefined || value === null) continue;
    const p = [...path, name];
    const admin = schema.adminRelations?.get(name);
    if (admin) {
      add(targets, admin.target, null, linkedIds(admin, value, p));
      continue;
    }
    const a = schema.attributes.get(name)!;
    if (a.kind === 'relation') {
      const target = model.contentTypes.get(a.target)!;
      add(targets, target.uid, target.table, linkedIds(a, value, p));
    } else if (a.kind === 'media') {
      const refs = readable(() => mediaRefs(a, value, pathText(p))) ?? [];
      add(
        targets,
        FILE_UID,
        FILES_TABLE,
        refs.filter((r) => r.documentId === undefined).map((r) => r.id),
      );
    } else if (a.kind !== 'scalar') for (const n of nestedItems(model, a, value, p)) collect(model, n.schema, n.data, n.path, targets);
  }
}

/**
 * Strapi's refusal for the first target type whose row ids in `data` name no row (counting each
 * missing id once), or null when every id names a row.
 */
export async function missingRowIds(tx: Tx, model: Model, schema: Schema, data: unknown): Promise<MissingRelationsError | null> {
  if (!isObj(data)) return null;
  const targets = new Map<string, Target>();
  collect(model, schema, data, [], targets);
  for (const [uid, { table, ids }] of targets) {
    if (ids.size === 0) continue;
    const all = [...ids];
    const found = new Set<number>();
    for (let from = 0; table !== null && from < all.length; from += IDS_PER_LOOKUP) {
      const rows = await tx
        .selectFrom(table)
        .select('id')
        .where('id', 'in', all.slice(from, from + IDS_PER_LOOKUP))
        .execute();
      for (const r of rows) found.add(Number(r.id));
    }
    const missing = all.filter((id) => !found.has(id)).length;
    if (missing) return new MissingRelationsError(missing, uid);
  }
  return null;
}
