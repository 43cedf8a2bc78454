// The component and dynamic-zone values of one level of rows, written together: the components the rows
// hold now read in one statement per table, the new ones inserted together, the kept ones updated
// together, their relations placed ahead (placed-targets.ts), then — through the caller's applyToRows —
// the level below, and last the rows' links to their components. A zone of 40 sections each holding
// cards costs what a zone of 3 does.
import { ApplicationError } from '../../errors.js';
import { inChunks } from '../../database/in-list.js';
import type { WriteData } from '../input/types.js';
import { deleteRows } from './children.js';
import { DeferredLinks, insertLinks } from './deferred-links.js';
import { insertRows, placesBy } from './insert-rows.js';
import type { CmpLink } from './new-rows.js';
import { dpSource } from './owner-link-shape.js';
import { placeTargets, type ListRow } from './placed-targets.js';
import type { RelationContext, SourceRow } from './relations.js';
import { defaultColumns, scalarColumns } from './rows.js';
import { updateRows, type RowUpdate } from './update-rows.js';

export interface Item {
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

/** One component or dynamic-zone value sent for a row. */
export interface ListWrite {
  readonly owner: SourceRow;
  /** the owner is a row this write inserts */
  readonly ownerIsNew: boolean;
  readonly field: string;
  readonly items: readonly Item[];
  readonly zone: boolean;
}

type Attached = { cmp_id: unknown; component_type: unknown; entity_id: unknown; field: unknown };

/** The components attached to the stored owners of `lists` under their fields: one read per component table. */
async function attachedTo(ctx: RelationContext, lists: readonly ListWrite[]): Promise<Map<ListWrite, Attached[]>> {
  const byOwner = new Map<string, Attached[]>();
  const keyOf = (table: string, owner: number, field: string): string => `${table}\u0000${owner}\u0000${field}`;
  for (const [table, places] of placesBy(lists, (l) => l.owner.schema.componentTable)) {
    const mine = places.map((i) => lists[i]!);
    const fields = [...new Set(mine.map((l) => l.field))];
    for (const owners of inChunks([...new Set(mine.map((l) => l.owner.id))])) {
      const rows = (await ctx.store.tx
        .selectFrom(table)
        .select(['cmp_id', 'component_type', 'entity_id', 'field'])
        .where('entity_id', 'in', owners)
        .where('field', 'in', fields)
        .execute()) as Attached[];
      for (const r of rows) {
        const key = keyOf(table, Number(r.entity_id), String(r.field));
        const list = byOwner.get(key);
        if (list) list.push(r);
        else byOwner.set(key, [r]);
      }
    }
  }
  return new Map(lists.map((l) => [l, byOwner.get(keyOf(l.owner.schema.componentTable, l.owner.id, l.field)) ?? []]));
}

/** Refuses items sent with the id of a component the row doesn't hold under `field`. */
function refuseUnattached(existing: readonly Attached[], field: string, items: readonly Item[], zone: boolean): void {
  const attached = new Set(existing.map((r) => `${String(r.component_type)}#${Number(r.cmp_id)}`));
  for (const it of items) {
    if (it.id !== undefined && !attached.has(`${it.component}#${it.id}`)) {
      const message = `Some of the provided components in ${field} are not related to the entity`;
      throw zone ? new UnrelatedZoneComponents(message) : new ApplicationError(message);
    }
  }
}

/** A row of a list, with the list it is in; `naming`: how many times its list named the component before (0: the first). */
interface PlacedRow extends ListRow {
  readonly list: ListWrite;
  readonly component: string;
  readonly naming: number;
}

/**
 * Writes every component list of one level together: the components of all the rows a level up, read,
 * inserted, updated and linked in a few statements whatever their number, then the rows' own lists a
 * level down (applyToRows), so a zone of 40 sections each holding cards costs what a zone of 3 does.
 */
export async function writeLists(
  ctx: RelationContext,
  lists: readonly ListWrite[],
  /** writes the rows' own lists, media and relations (apply-data.ts) */
  applyToRows: (ctx: RelationContext, rows: readonly { source: SourceRow; data: WriteData; isNew: boolean }[]) => Promise<void>,
): Promise<void> {
  const { tx } = ctx.store;
  const existing = await attachedTo(
    ctx,
    lists.filter((l) => !l.ownerIsNew),
  );
  for (const l of lists) refuseUnattached(existing.get(l) ?? [], l.field, l.items, l.zone);
  const dialect = ctx.store.dialect;
  const fresh = lists.flatMap((l) => l.items.filter((it) => it.id === undefined));
  const freshIds = await insertRows(
    ctx.store,
    fresh.map((it) => {
      const comp = ctx.model.components.get(it.component)!;
      return { table: comp.table, values: { ...defaultColumns(dialect, comp, it.data.scalars), ...scalarColumns(dialect, comp, it.data.scalars) } };
    }),
  );
  let next = 0;
  const rows: PlacedRow[] = [];
  for (const list of lists) {
    const named = new Map<string, number>();
    for (const it of list.items) {
      const id = it.id ?? freshIds[next++]!;
      const comp = ctx.model.components.get(it.component)!;
      // a component named twice is one entry, at its first place, holding what the last one sent (as Strapi 5.54 keeps it)
      const key = `${it.component}#${id}`;
      const naming = it.id === undefined ? 0 : (named.get(key) ?? 0);
      named.set(key, naming + 1);
      if (it.id === undefined) ctx.store.newRows?.created(comp.componentTable, id);
      const source: SourceRow = { id, documentId: null, locale: list.owner.locale, schema: comp, inDraftAndPublish: dpSource(list.owner) };
      rows.push({ list, component: it.component, source, data: it.data, isNew: it.id === undefined, naming });
    }
  }
  const first = rows.filter((r) => r.naming === 0);
  // the rows' links wait and go together (an update has no queue of its own: these lists get one)
  const deferred = ctx.store.deferred ? undefined : new DeferredLinks();
  const store = deferred ? { ...ctx.store, deferred } : ctx.store;
  const inner: RelationContext = { ...ctx, store, placed: await placeTargets(ctx, first) };
  await updateKept(
    ctx,
    lists.flatMap((l) => l.items),
  );
  await applyToRows(inner, first);
  // a row named again is written again after the others, each naming from what the one before wrote: the
  // last naming's lists and media are what it holds (written together, the namings' media links added up)
  const again = rows.filter((r) => r.naming > 0);
  for (const [, places] of placesBy(again, (r) => r.naming).sort(([a], [b]) => a - b)) {
    await store.deferred?.flush(store);
    await applyToRows(
      { ...inner, placed: undefined },
      places.map((k) => again[k]!),
    );
  }
  await deferred?.flush(ctx.store);
  // components dropped from the values are deleted with everything they hold
  const keptIds = new Set(first.map((r) => `${r.component}#${r.source.id}`));
  const dropped = new Map<string, number[]>();
  for (const r of [...existing.values()].flat()) {
    const type = String(r.component_type);
    if (keptIds.has(`${type}#${Number(r.cmp_id)}`)) continue;
    const ids = dropped.get(type) ?? [];
    ids.push(Number(r.cmp_id));
    dropped.set(type, ids);
  }
  for (const [uid, ids] of dropped) {
    const comp = ctx.model.components.get(uid);
    if (comp) await deleteRows(ctx.store, ctx.model, comp, ids);
  }
  // the owners' links to their components: those of stored owners replaced, a field at a time
  const stored = lists.filter((l) => !l.ownerIsNew);
  for (const [, places] of placesBy(stored, (l) => `${l.owner.schema.componentTable}\u0000${l.field}`)) {
    const { owner, field } = stored[places[0]!]!;
    const table = owner.schema.componentTable;
    const owners = [...new Set(places.map((i) => stored[i]!.owner.id))];
    for (const ids of inChunks(owners)) await tx.deleteFrom(table).where('entity_id', 'in', ids).where('field', '=', field).execute();
  }
  const linksOf = new Map<ListWrite, (CmpLink & { readonly entity_id: number })[]>(lists.map((l) => [l, []]));
  for (const r of first) {
    const links = linksOf.get(r.list)!;
    links.push({ entity_id: r.list.owner.id, cmp_id: r.source.id, component_type: r.component, field: r.list.field, ord: links.length + 1 });
  }
  for (const isNew of [false, true]) {
    const mine = lists.filter((l) => l.ownerIsNew === isNew);
    for (const [table, places] of placesBy(mine, (l) => l.owner.schema.componentTable)) {
      await insertLinks(
        ctx.store,
        table,
        places.flatMap((i) => linksOf.get(mine[i]!)!),
        isNew,
      );
    }
  }
  for (const l of lists) ctx.store.newRows?.add(l.owner.schema.componentTable, l.owner.id, linksOf.get(l)!);
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
