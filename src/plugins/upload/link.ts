// Linking an upload to an entry's media attribute (`ref`, `refId`, `field`, optional `source`):
// checked against the model and the caller's permissions before anything is stored, written in the
// upload's transaction.
import type { Ability } from '../../auth/ability.js';
import { ForbiddenError, ValidationError } from '../../errors.js';
import type { Store, Tx } from '../../documents/store/rows.js';
import { lockRows } from '../../documents/store/document-lock.js';
import { insertMany } from '../../documents/store/rows.js';
import { FILE_UID, type Component, type ContentType, type MediaAttribute, type Model } from '../../schema/types.js';
import { documentIdText, rowId } from '../../documents/input/refs.js';

export interface LinkTarget {
  /** a content type, or a component whose row (refId) sits in some entry */
  readonly type: ContentType | Component;
  readonly attribute: MediaAttribute;
  /** what the caller sent as refId */
  readonly refId: string;
  /** a component's row is the entry's: the caller must be able to update the entry it sits in */
  readonly ability: Ability;
  readonly model: Model;
}

const LINK_TABLE = 'files_related_mph';

/** The value of a form field sent at most once; absent → undefined. */
export function single(fields: ReadonlyMap<string, readonly string[]>, key: string): string | undefined {
  const values = fields.get(key);
  if (!values || values.length === 0) return undefined;
  if (values.length > 1) throw new ValidationError(`${key} must be a single value`);
  return values[0];
}

function uidOf(ref: string, source: string | undefined): string {
  if (ref.includes('::')) return ref;
  if (source) return `plugin::${source}.${ref}`;
  return `api::${ref}.${ref}`;
}

/** The link an upload asks for, or null. Throws 400 for a bad target, 403 without `<uid>.update`. */
export function linkTarget(model: Model, ability: Ability, fields: ReadonlyMap<string, readonly string[]>, fileCount: number): LinkTarget | null {
  const ref = single(fields, 'ref');
  const refId = single(fields, 'refId');
  const field = single(fields, 'field');
  const source = single(fields, 'source');
  if (ref === undefined && refId === undefined && field === undefined) return null;
  if (!ref || !refId || !field) throw new ValidationError('ref, refId and field must all be given to link the upload to an entry');
  // a component's uid names one of its rows, as in Strapi (`ref=shared.seo`, `refId` the component's id)
  const component = source === undefined ? model.components.get(ref) : undefined;
  const uid = component ? component.uid : uidOf(ref, source);
  const type = component ?? model.contentTypes.get(uid);
  if (!type || uid === FILE_UID) throw new ValidationError(`ref "${ref}" is not a content type`);
  const attribute = type.attributes.get(field);
  if (!attribute) throw new ValidationError(`field "${field}" is not an attribute of ${uid}`);
  if (attribute.kind !== 'media') throw new ValidationError(`field "${field}" of ${uid} is not a media attribute`);
  if (!component && !ability.can(`${uid}.update`)) throw new ForbiddenError('Forbidden');
  if (!attribute.multiple && fileCount > 1) {
    throw new ValidationError(`field "${field}" of ${uid} holds a single file: upload one file to link it`);
  }
  return { type, attribute, refId, ability, model };
}

const holds = (schema: ContentType | Component, uid: string): boolean =>
  [...schema.attributes.values()].some((a) => (a.kind === 'component' && a.component === uid) || (a.kind === 'dynamiczone' && a.components.includes(uid)));

/** The entry a component row sits in (its type and row id), through the components above it; null for a row in none. */
async function entryOf(tx: Tx, model: Model, component: Component, id: number): Promise<{ type: ContentType; id: number } | null> {
  let uid = component.uid;
  let rowId = id;
  // components nest a few levels at most; the bound only keeps a damaged link table from looping
  for (let depth = 0; depth < 16; depth++) {
    let parent: { schema: ContentType | Component; id: number } | null = null;
    for (const schema of [...model.contentTypes.values(), ...model.components.values()]) {
      if (!holds(schema, uid)) continue;
      const link = await tx.selectFrom(schema.componentTable).select('entity_id').where('cmp_id', '=', rowId).where('component_type', '=', uid).executeTakeFirst();
      if (link) {
        parent = { schema, id: Number(link.entity_id) };
        break;
      }
    }
    if (!parent) return null;
    if (parent.schema.modelType === 'contentType') return { type: parent.schema, id: parent.id };
    uid = parent.schema.uid;
    rowId = parent.id;
  }
  return null;
}

/**
 * The rows the link goes to: a numeric refId is one row id (as Strapi); anything else is a
 * documentId, meaning every row of that document (its locales, draft and published).
 */
export async function targetRows(s: Store, target: LinkTarget): Promise<number[]> {
  if (target.type.modelType === 'component') return componentRow(s, target, target.type);
  // the rows are locked (in a transaction): uploads linking the same field wait for one another, so a
  // single field ends with one file and a list's positions don't repeat
  const q = s.tx.selectFrom(target.type.table).select('id');
  const locked = s.dialect.rowLocks ? q.forUpdate() : q;
  let rows: { id: unknown }[] = [];
  // digits are a row id (one past 32 bits names no row), anything else a documentId
  if (/^\d+$/.test(target.refId)) {
    const id = rowId(target.refId);
    if (id !== undefined) rows = await locked.where('id', '=', id).execute();
  } else if (documentIdText(target.refId)) {
    rows = await locked.where('document_id', '=', target.refId).orderBy('id').execute();
  }
  if (rows.length === 0) throw new ValidationError(`refId "${target.refId}" does not match any entry of ${target.type.uid}`);
  return rows.map((r) => Number(r.id));
}

/**
 * A component's row, by its id only; linking to it asks `update` on the entry it sits in. The entry's
 * row is locked, as a write replacing its components locks it: the component is looked for again once
 * the lock is held, so a link never names a row a concurrent write has just replaced.
 */
async function componentRow(s: Store, target: LinkTarget, component: Component): Promise<number[]> {
  const id = /^\d+$/.test(target.refId) ? rowId(target.refId) : undefined;
  const find = async () => (id === undefined ? null : entryOf(s.tx, target.model, component, id));
  const missing = () => new ValidationError(`refId "${target.refId}" does not match any entry of ${component.uid}`);
  const entry = await find();
  if (!entry || id === undefined) throw missing();
  if (!target.ability.can(`${entry.type.uid}.update`)) throw new ForbiddenError('Forbidden');
  if (!s.dialect.rowLocks) return [id];
  await lockRows(s, entry.type.table, [entry.id]);
  const still = await find();
  if (!still || still.id !== entry.id) throw missing();
  return [id];
}

/** Links the files: a single media attribute is replaced, a multiple one gets them appended. */
export async function linkFiles(s: Store, target: LinkTarget, rowIds: readonly number[], fileIds: readonly number[]): Promise<void> {
  const { uid } = target.type;
  const field = target.attribute.name;
  for (const rowId of rowIds) {
    let next = 1;
    if (!target.attribute.multiple) {
      await s.tx.deleteFrom(LINK_TABLE).where('related_id', '=', rowId).where('related_type', '=', uid).where('field', '=', field).execute();
    } else {
      const last = await s.tx
        .selectFrom(LINK_TABLE)
        .select((eb) => eb.fn.max('ord').as('m'))
        .where('related_id', '=', rowId)
        .where('related_type', '=', uid)
        .where('field', '=', field)
        .executeTakeFirst();
      next = Number(last?.m ?? 0) + 1;
    }
    await insertMany(
      s,
      LINK_TABLE,
      fileIds.map((file_id, i) => ({ file_id, related_id: rowId, related_type: uid, field, ord: next + i })),
    );
  }
}
