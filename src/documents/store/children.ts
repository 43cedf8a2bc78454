// What hangs off a row besides its scalars: components (with their own children), relation links
// it owns and media links. Deleting and copying a row's children is one walk over the model.
import { sql } from 'kysely';
import type { Component, ContentType, Model } from '../../schema/types.js';
import { insertMany, insertRow, type Store } from './rows.js';

type Schema = ContentType | Component;

const MEDIA_TABLE = 'files_related_mph';

function ownedRelations(schema: Schema, only?: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (const a of schema.attributes.values()) if (a.kind === 'relation' && a.owner && (!only || only.has(a.name))) out.push(a.linkTable);
  return out;
}

function hasComponents(schema: Schema): boolean {
  for (const a of schema.attributes.values()) if (a.kind === 'component' || a.kind === 'dynamiczone') return true;
  return false;
}

interface CmpLink {
  id: number;
  cmp_id: number;
  component_type: string;
  field: string;
  ord: number;
}

async function componentLinks(s: Store, schema: Schema, entityIds: readonly number[]): Promise<CmpLink[]> {
  if (!hasComponents(schema) || entityIds.length === 0) return [];
  const rows = await s.tx.selectFrom(schema.componentTable).select(['id', 'entity_id', 'cmp_id', 'component_type', 'field', 'ord'])
    .where('entity_id', 'in', [...entityIds]).orderBy('entity_id').orderBy('ord').execute();
  return rows.map((r) => ({ id: Number(r.id), cmp_id: Number(r.cmp_id), component_type: String(r.component_type), field: String(r.field), ord: Number(r.ord), entity_id: Number(r.entity_id) }));
}

/** Deletes the components, owned relation links and media links of rows (not the rows). */
export async function deleteChildren(s: Store, model: Model, schema: Schema, entityIds: readonly number[]): Promise<void> {
  if (entityIds.length === 0) return;
  const links = await componentLinks(s, schema, entityIds);
  const byType = new Map<string, number[]>();
  for (const l of links) {
    let list = byType.get(l.component_type);
    if (!list) byType.set(l.component_type, (list = []));
    list.push(l.cmp_id);
  }
  for (const [uid, ids] of byType) {
    const comp = model.components.get(uid);
    if (!comp) continue;
    await deleteChildren(s, model, comp, ids);
    await s.tx.deleteFrom(comp.table).where('id', 'in', ids).execute();
  }
  if (links.length) await s.tx.deleteFrom(schema.componentTable).where('entity_id', 'in', [...entityIds]).execute();
  for (const table of ownedRelations(schema)) await s.tx.deleteFrom(table).where('source_id', 'in', [...entityIds]).execute();
  await s.tx.deleteFrom(MEDIA_TABLE).where('related_id', 'in', [...entityIds]).where('related_type', '=', schema.uid).execute();
}

/**
 * Copies the children of row `fromId` onto row `toId` (components get new rows); with `only`, just the
 * components, relations and media of those attributes.
 */
export async function copyChildren(s: Store, model: Model, schema: Schema, fromId: number, toId: number, only?: ReadonlySet<string>): Promise<void> {
  const links = (await componentLinks(s, schema, [fromId])).filter((l) => !only || only.has(l.field));
  const newLinks: Record<string, unknown>[] = [];
  for (const l of links) {
    const comp = model.components.get(l.component_type);
    if (!comp) continue;
    const row = await s.tx.selectFrom(comp.table).selectAll().where('id', '=', l.cmp_id).executeTakeFirst();
    if (!row) continue;
    const { id: _old, ...values } = row as Record<string, unknown>;
    void _old;
    const newId = await insertRow(s, comp.table, values);
    await copyChildren(s, model, comp, l.cmp_id, newId);
    newLinks.push({ entity_id: toId, cmp_id: newId, component_type: l.component_type, field: l.field, ord: l.ord });
  }
  await insertMany(s, schema.componentTable, newLinks);
  const cols = ['target_document_id', 'target_locale', 'target_status', 'ord', 'inv_ord'] as const;
  for (const table of ownedRelations(schema, only)) {
    await s.tx.insertInto(table).columns(['source_id', ...cols])
      .expression(s.tx.selectFrom(table).select([sql<number>`${toId}`.as('source_id'), ...cols]).where('source_id', '=', fromId))
      .execute();
  }
  let media = s.tx.selectFrom(MEDIA_TABLE).select(['file_id', sql<number>`${toId}`.as('related_id'), 'related_type', 'field', 'ord'])
    .where('related_id', '=', fromId).where('related_type', '=', schema.uid);
  if (only) media = media.where('field', 'in', only.size ? [...only] : ['']);
  await s.tx.insertInto(MEDIA_TABLE).columns(['file_id', 'related_id', 'related_type', 'field', 'ord']).expression(media).execute();
}
