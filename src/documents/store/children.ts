// What hangs off a row besides its scalars: components (with their own children), relation links
// it owns and media links. Deleting and copying a row's children is one walk over the model: the
// component links are read first, a level at a time (component-tree.ts), copies of component rows
// are made one by one (their new ids are needed), and the other writes go together (write-batch.ts).
import { sql } from 'kysely';
import { rowColumns } from '../../database/tables.js';
import type { Component, ContentType, Model } from '../../schema/types.js';
import { insertRow, insertsOf, type Store } from './rows.js';
import { readComponentTree, type ComponentTree } from './component-tree.js';
import { runWrites, type Write } from './write-batch.js';

type Schema = ContentType | Component;

const MEDIA_TABLE = 'files_related_mph';

function ownedRelations(schema: Schema, only?: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (const a of schema.attributes.values()) if (a.kind === 'relation' && a.owner && (!only || only.has(a.name))) out.push(a.linkTable);
  return out;
}

/** Queues the deletes of the components, owned relation links and media links of rows. */
function collectDeletes(s: Store, model: Model, tree: ComponentTree, schema: Schema, entityIds: readonly number[], out: Write[]): void {
  if (entityIds.length === 0) return;
  const links = entityIds.flatMap((id) => tree.links(schema, id));
  const byType = new Map<string, number[]>();
  for (const l of links) {
    let list = byType.get(l.component_type);
    if (!list) byType.set(l.component_type, (list = []));
    list.push(l.cmp_id);
  }
  for (const [uid, ids] of byType) {
    const comp = model.components.get(uid);
    if (!comp) continue;
    collectDeletes(s, model, tree, comp, ids, out);
    out.push(s.tx.deleteFrom(comp.table).where('id', 'in', ids));
  }
  const ids = [...entityIds];
  if (links.length) out.push(s.tx.deleteFrom(schema.componentTable).where('entity_id', 'in', ids));
  for (const table of ownedRelations(schema)) out.push(s.tx.deleteFrom(table).where('source_id', 'in', ids));
  out.push(s.tx.deleteFrom(MEDIA_TABLE).where('related_id', 'in', ids).where('related_type', '=', schema.uid));
}

/** Deletes rows of a schema's own table together with everything that hangs off them. */
export async function deleteRows(s: Store, model: Model, schema: Schema, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  const writes: Write[] = [];
  collectDeletes(s, model, await readComponentTree(s, model, schema, ids), schema, ids, writes);
  writes.push(s.tx.deleteFrom(schema.table).where('id', 'in', [...ids]));
  await runWrites(s, writes);
}

const columnsOf = new WeakMap<Component, string[]>();

/** Copies one component row in a single statement; null when the row is gone. */
async function copyComponentRow(s: Store, comp: Component, id: number): Promise<number | null> {
  let cols = columnsOf.get(comp);
  if (!cols) columnsOf.set(comp, (cols = rowColumns(comp).map((c) => c.name)));
  if (cols.length === 0) {
    // a component with only media or relations has no columns to select into the copy
    const found = await s.tx.selectFrom(comp.table).select('id').where('id', '=', id).executeTakeFirst();
    return found ? insertRow(s, comp.table, {}) : null;
  }
  const insert = s.tx.insertInto(comp.table).columns(cols).expression(s.tx.selectFrom(comp.table).select(cols).where('id', '=', id));
  if (s.dialect.returning) {
    const r = await insert.returning('id').executeTakeFirst();
    return r ? Number((r as { id: unknown }).id) : null;
  }
  const r = await insert.executeTakeFirstOrThrow();
  return Number(r.numInsertedOrUpdatedRows ?? 0n) > 0 ? Number(r.insertId) : null;
}

/** Creates copies of the row's components and queues the link copies that point the new row at them. */
async function collectCopies(s: Store, model: Model, tree: ComponentTree, schema: Schema, fromId: number, toId: number, only: ReadonlySet<string> | undefined, out: Write[]): Promise<void> {
  const links = tree.links(schema, fromId).filter((l) => !only || only.has(l.field));
  const newLinks: Record<string, unknown>[] = [];
  for (const l of links) {
    const comp = model.components.get(l.component_type);
    if (!comp) continue;
    const newId = await copyComponentRow(s, comp, l.cmp_id);
    if (newId === null) continue;
    await collectCopies(s, model, tree, comp, l.cmp_id, newId, undefined, out);
    newLinks.push({ entity_id: toId, cmp_id: newId, component_type: l.component_type, field: l.field, ord: l.ord });
  }
  out.push(...insertsOf(s, schema.componentTable, newLinks));
  const cols = ['target_document_id', 'target_locale', 'target_status', 'ord', 'inv_ord'] as const;
  for (const table of ownedRelations(schema, only)) {
    out.push(s.tx.insertInto(table).columns(['source_id', ...cols])
      .expression(s.tx.selectFrom(table).select([sql<number>`${toId}`.as('source_id'), ...cols]).where('source_id', '=', fromId)));
  }
  let media = s.tx.selectFrom(MEDIA_TABLE).select(['file_id', sql<number>`${toId}`.as('related_id'), 'related_type', 'field', 'ord'])
    .where('related_id', '=', fromId).where('related_type', '=', schema.uid);
  if (only) media = media.where('field', 'in', only.size ? [...only] : ['']);
  out.push(s.tx.insertInto(MEDIA_TABLE).columns(['file_id', 'related_id', 'related_type', 'field', 'ord']).expression(media));
}

/** Replaces the children of row `toId` with copies of those of row `fromId` (publishing over a published row). */
export async function replaceChildren(s: Store, model: Model, schema: Schema, fromId: number, toId: number): Promise<void> {
  const writes: Write[] = [];
  // one read per level for both rows' components
  const tree = await readComponentTree(s, model, schema, [fromId, toId]);
  // the deletes come first: where writes run one by one, they must not remove the new links
  collectDeletes(s, model, tree, schema, [toId], writes);
  await collectCopies(s, model, tree, schema, fromId, toId, undefined, writes);
  await runWrites(s, writes);
}

/**
 * Copies the children of row `fromId` onto row `toId` (components get new rows); with `only`, just the
 * components, relations and media of those attributes.
 */
export async function copyChildren(s: Store, model: Model, schema: Schema, fromId: number, toId: number, only?: ReadonlySet<string>): Promise<void> {
  const writes: Write[] = [];
  await collectCopies(s, model, await readComponentTree(s, model, schema, [fromId]), schema, fromId, toId, only, writes);
  await runWrites(s, writes);
}
