// Writes the non-scalar parts of checked input onto a stored row: components and dynamic-zone
// entries (recursively), relations and media. Scalars of the row itself are the caller's.
import { ApplicationError } from '../../errors.js';
import type { Component, ContentType, RelationAttribute } from '../../schema/types.js';
import type { ComponentInput, WriteData, ZoneEntryInput } from '../input/types.js';
import { deleteRows } from './children.js';
import { lookUpFiles, mediaRefsIn, setMedia } from './media.js';
import type { CmpLink } from './new-rows.js';
import { refuseAdminLinks } from './admin-links.js';
import { dpSource } from './owner-link-shape.js';
import { checkUnlinkedRelation, writeInverseRelation, writeOwnerRelation, type RelationContext, type SourceRow } from './relations.js';
import { DeferredLinks, insertLinks } from './deferred-links.js';
import { placeTargets, type ListRow } from './placed-targets.js';
import { defaultColumns, scalarColumns } from './rows.js';
import { insertRows } from './insert-rows.js';
import { updateRows, type RowUpdate } from './update-rows.js';

type Schema = ContentType | Component;

interface Item {
  readonly component: string;
  readonly id?: number;
  readonly data: WriteData;
}

/**
 * A component id not attached to the row. Strapi's zone code throws a plain Error here, which its
 * error middleware renders as `{status: 400, name: 'Error', message}` without details; a component
 * attribute gets an ApplicationError (details {}).
 */
class UnrelatedZoneComponents extends ApplicationError {
  override readonly name = 'Error';
  override readonly details = undefined;
}

/** The components attached to a stored row under `field`. */
async function attachedTo(ctx: RelationContext, owner: SourceRow, field: string): Promise<{ cmp_id: unknown; component_type: unknown }[]> {
  return ctx.store.tx.selectFrom(owner.schema.componentTable).select(['cmp_id', 'component_type']).where('entity_id', '=', owner.id).where('field', '=', field).execute();
}

/** Refuses items sent with the id of a component the row doesn't hold under `field`. */
function refuseUnattached(existing: readonly { cmp_id: unknown; component_type: unknown }[], field: string, items: readonly Item[], zone: boolean): void {
  const attached = new Set(existing.map((r) => `${String(r.component_type)}#${Number(r.cmp_id)}`));
  for (const it of items) {
    if (it.id !== undefined && !attached.has(`${it.component}#${it.id}`)) {
      const message = `Some of the provided components in ${field} are not related to the entity`;
      throw zone ? new UnrelatedZoneComponents(message) : new ApplicationError(message);
    }
  }
}

async function writeItems(ctx: RelationContext, owner: SourceRow, field: string, sent: readonly Item[], isNew: boolean, zone = false): Promise<void> {
  const { tx } = ctx.store;
  // a row this write inserts has no components yet: an id sent with one is ignored and the component
  // created, as Strapi 5.54 does on create (an update names the components it keeps by their ids)
  const items = isNew ? sent.map((it): Item => ({ component: it.component, data: it.data })) : sent;
  const existing = isNew ? [] : await attachedTo(ctx, owner, field);
  refuseUnattached(existing, field, items, zone);
  const kept = new Set<string>();
  const links: (CmpLink & { readonly entity_id: number })[] = [];
  const dialect = ctx.store.dialect;
  const fresh = items.filter((it) => it.id === undefined);
  const freshIds = await insertRows(
    ctx.store,
    fresh.map((it) => {
      const comp = ctx.model.components.get(it.component)!;
      return { table: comp.table, values: { ...defaultColumns(dialect, comp, it.data.scalars), ...scalarColumns(dialect, comp, it.data.scalars) } };
    }),
  );
  const rowOf = (it: Item, id: number): SourceRow => ({
    id,
    documentId: null,
    locale: owner.locale,
    schema: ctx.model.components.get(it.component)!,
    inDraftAndPublish: dpSource(owner),
  });
  let next = 0;
  const rows: ListRow[] = items.map((it) => ({ source: rowOf(it, it.id ?? freshIds[next++]!), data: it.data, isNew: it.id === undefined }));
  // the rows' links wait and go together (an update has no queue of its own: this list gets one)
  const deferred = ctx.store.deferred ? undefined : new DeferredLinks();
  const inner: RelationContext = { ...ctx, store: deferred ? { ...ctx.store, deferred } : ctx.store, placed: await placeTargets(ctx, rows) };
  await updateKept(ctx, items);
  for (const [i, it] of items.entries()) {
    const row = rows[i]!;
    const { id } = row.source;
    if (!row.isNew) {
      // a component named twice is one entry, at its first place, holding what the last one sent (as Strapi 5.54 keeps it)
      const again = kept.has(`${it.component}#${id}`);
      kept.add(`${it.component}#${id}`);
      await applyData(inner, row.source, it.data, false);
      if (again) continue;
    } else {
      ctx.store.newRows?.created(ctx.model.components.get(it.component)!.componentTable, id);
      await applyData(inner, row.source, it.data, true);
    }
    links.push({ entity_id: owner.id, cmp_id: id, component_type: it.component, field, ord: links.length + 1 });
  }
  await deferred?.flush(ctx.store);
  // components dropped from the value are deleted with everything they hold
  const byType = new Map<string, number[]>();
  for (const r of existing) {
    const key = `${String(r.component_type)}#${Number(r.cmp_id)}`;
    if (kept.has(key)) continue;
    const list = byType.get(String(r.component_type)) ?? [];
    list.push(Number(r.cmp_id));
    byType.set(String(r.component_type), list);
  }
  for (const [uid, ids] of byType) {
    const comp = ctx.model.components.get(uid);
    if (!comp) continue;
    await deleteRows(ctx.store, ctx.model, comp, ids);
  }
  if (!isNew) await tx.deleteFrom(owner.schema.componentTable).where('entity_id', '=', owner.id).where('field', '=', field).execute();
  await insertLinks(ctx.store, owner.schema.componentTable, links, isNew);
  ctx.store.newRows?.add(owner.schema.componentTable, owner.id, links);
}

/**
 * The columns of the components kept by id, updated together (update-rows.ts); a row named twice gets
 * what each sent, the later over the earlier.
 */
async function updateKept(ctx: RelationContext, items: readonly Item[]): Promise<void> {
  const rows = new Map<string, RowUpdate & { cols: Record<string, unknown> }>();
  for (const it of items) {
    if (it.id === undefined) continue;
    const comp = ctx.model.components.get(it.component)!;
    const cols = scalarColumns(ctx.store.dialect, comp, it.data.scalars);
    if (Object.keys(cols).length === 0) continue;
    const key = `${comp.table}#${it.id}`;
    const row = rows.get(key);
    if (row) Object.assign(row.cols, cols);
    else rows.set(key, { table: comp.table, id: it.id, cols });
  }
  await updateRows(ctx.store, [...rows.values()]);
}

function componentItems(uid: string, v: ComponentInput | ComponentInput[] | null): Item[] {
  if (v === null) return [];
  return (Array.isArray(v) ? v : [v]).map((c) => ({ component: uid, id: c.id, data: c.data }));
}

function zoneItems(v: ZoneEntryInput[] | null): Item[] {
  return (v ?? []).map((e) => ({ component: e.component, id: e.id, data: e.data }));
}

export async function applyData(ctx: RelationContext, row: SourceRow, data: WriteData, isNew: boolean): Promise<void> {
  const schema: Schema = row.schema;
  // the files of every component and zone entry below a document, looked up together: a lookup per
  // component was 10,000 statements for a zone of 10,000 media entries
  if (row.documentId !== null) await lookUpFiles(ctx.store, mediaRefsIn(data));
  for (const [name, value] of data.components) {
    const a = schema.attributes.get(name);
    if (a?.kind === 'component') await writeItems(ctx, row, name, componentItems(a.component, value), isNew);
  }
  for (const [name, value] of data.zones) await writeItems(ctx, row, name, zoneItems(value), isNew, true);
  for (const [name, refs] of data.media) await setMedia(ctx.store, schema.uid, row.id, name, refs, isNew);
  for (const [name, op] of data.relations) {
    const a = schema.attributes.get(name) as RelationAttribute;
    if (a.owner) await writeOwnerRelation(ctx, row, a, op, isNew);
    else await writeInverseRelation(ctx, row as SourceRow & { schema: ContentType }, a, op);
  }
  for (const [name, op] of data.unlinked) {
    const a = schema.emptyRelations?.get(name);
    if (a) await checkUnlinkedRelation(ctx, row, a, op);
    const admin = schema.adminRelations?.get(name);
    if (admin) refuseAdminLinks(admin, op);
  }
}
