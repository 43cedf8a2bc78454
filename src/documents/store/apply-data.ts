// Writes the non-scalar parts of checked input onto a stored row: components and dynamic-zone
// entries (a level at a time, component-lists.ts), relations and media. Scalars of the row itself are the caller's.
import type { Component, ContentType, RelationAttribute } from '../../schema/types.js';
import type { ComponentInput, WriteData, ZoneEntryInput } from '../input/types.js';
import { lookUpFiles, mediaRefsIn, setMedia } from './media.js';
import { refuseAdminLinks } from './admin-links.js';
import { checkUnlinkedRelation, writeInverseRelation, writeOwnerRelation, type RelationContext, type SourceRow } from './relations.js';
import { writeLists, type Item, type ListWrite } from './component-lists.js';
import { walkOrder } from './walk-order.js';

type Schema = ContentType | Component;

function componentItems(uid: string, v: ComponentInput | ComponentInput[] | null): Item[] {
  if (v === null) return [];
  return (Array.isArray(v) ? v : [v]).map((c) => ({ component: uid, id: c.id, data: c.data }));
}

function zoneItems(v: ZoneEntryInput[] | null): Item[] {
  return (v ?? []).map((e) => ({ component: e.component, id: e.id, data: e.data }));
}

interface RowWrite {
  readonly source: SourceRow;
  readonly data: WriteData;
  readonly isNew: boolean;
}

export async function applyData(ctx: RelationContext, row: SourceRow, data: WriteData, isNew: boolean): Promise<void> {
  // the files of every component and zone entry below a document, looked up together: a lookup per
  // component was 10,000 statements for a zone of 10,000 media entries
  if (row.documentId !== null) await lookUpFiles(ctx.store, mediaRefsIn(data));
  await applyToRows({ ...ctx, walk: walkOrder(data) }, [{ source: row, data, isNew }]);
}

/** Writes the rows' components and zones (all of them a level at a time), then each row's media and relations. */
async function applyToRows(ctx: RelationContext, rows: readonly RowWrite[]): Promise<void> {
  const lists: ListWrite[] = [];
  for (const { source, data, isNew } of rows) {
    // a row this write inserts has no components yet: an id sent with one is ignored and the component
    // created, as Strapi 5.54 does on create (an update names the components it keeps by their ids)
    const items = (sent: Item[]): Item[] => (isNew ? sent.map((it): Item => ({ component: it.component, data: it.data })) : sent);
    for (const [name, value] of data.components) {
      const a = source.schema.attributes.get(name);
      if (a?.kind === 'component') lists.push({ owner: source, ownerIsNew: isNew, field: name, items: items(componentItems(a.component, value)), zone: false });
    }
    for (const [name, value] of data.zones) lists.push({ owner: source, ownerIsNew: isNew, field: name, items: items(zoneItems(value)), zone: true });
  }
  if (lists.length) await writeLists(ctx, lists, applyToRows);
  for (const { source, data, isNew } of rows) {
    const schema: Schema = source.schema;
    for (const [name, refs] of data.media) await setMedia(ctx.store, schema.uid, source.id, name, refs, isNew, ctx.walk?.get(data));
    for (const [name, op] of data.relations) {
      const a = schema.attributes.get(name) as RelationAttribute;
      if (a.owner) await writeOwnerRelation(ctx, source, a, op, isNew);
      else await writeInverseRelation(ctx, source as SourceRow & { schema: ContentType }, a, op);
    }
    for (const [name, op] of data.unlinked) {
      const a = schema.emptyRelations?.get(name);
      if (a) await checkUnlinkedRelation(ctx, source, a, op);
      const admin = schema.adminRelations?.get(name);
      if (admin) refuseAdminLinks(admin, op);
    }
  }
}
