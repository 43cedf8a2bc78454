// The targets the rows of one component list link to, looked up and locked together before the rows
// are written. Each row's relation write needs its targets checked and their last place on the other
// side (where a new link goes), holds them against deletion, and — for a row kept by id — reads the
// links it has: made row by row, that was a lock, a look-up and the link insert (to read the next row's
// places) for every new row, and a read, a lock, a look-up, a delete and an insert for every kept one —
// 120 statements for a zone of 40 quotes each naming an author. The places and links are then kept here
// and moved on by each row's write, so the rows' links can wait and go to the database together.
import type { ContentType, RelationAttribute } from '../../schema/types.js';
import type { RelationRef, WriteData } from '../input/types.js';
import { inChunks } from '../../database/in-list.js';
import { lockDocumentLocales, lockDocuments } from './document-lock.js';
import { ownerLinkShape } from './owner-link-shape.js';
import type { RelationContext, SourceRow } from './relations.js';
import { keyOf, lookUpPlaces, type Entry } from './targets.js';

/** A link row as a relation write reads it. */
export interface StoredLink {
  readonly target_document_id: unknown;
  readonly target_locale: unknown;
  readonly target_status: unknown;
  readonly inv_ord: unknown;
}

interface TablePlaces {
  /** target document → the last place a link to it holds */
  readonly last: Map<string, number>;
  /** the target documents locked */
  readonly locked: ReadonlySet<string>;
  /** what the lock found still there (document, or document and locale), as the row's own lock answers it */
  readonly alive: ReadonlySet<string> | null;
  /** kept row → its links, in order */
  readonly links: Map<number, readonly StoredLink[]>;
}

export class PlacedTargets {
  private readonly tables = new Map<string, TablePlaces>();

  record(linkTable: string, places: TablePlaces): void {
    this.tables.set(linkTable, places);
  }

  /** The links a kept row holds in `linkTable`, when they were read here. */
  linksOf(linkTable: string, sourceId: number): readonly StoredLink[] | undefined {
    return this.tables.get(linkTable)?.links.get(sourceId);
  }

  /**
   * Where new links to `docs` go in `linkTable`, with the lock's answer, when all of them were looked up
   * and locked here, and the documents `linked` too were locked; else undefined.
   */
  placesOf(linkTable: string, docs: readonly string[], linked: readonly string[]): { last: Map<string, number>; alive: ReadonlySet<string> | null } | undefined {
    const t = this.tables.get(linkTable);
    if (!t || !docs.every((d) => t.last.has(d) && t.locked.has(d)) || !linked.every((d) => t.locked.has(d))) return undefined;
    return { last: t.last, alive: t.alive };
  }

  /** Links written to `linkTable` took these places: the next ones go after them. */
  moveOn(linkTable: string, places: ReadonlyMap<string, number>): void {
    const last = this.tables.get(linkTable)?.last;
    if (!last) return;
    for (const [doc, place] of places) if (place > (last.get(doc) ?? 0)) last.set(doc, place);
  }
}

const namedDocuments = (refs: readonly RelationRef[]): RelationRef[] => refs.filter((r) => r.documentId !== undefined);

interface Gathered {
  readonly attr: RelationAttribute;
  readonly perLocale: boolean;
  readonly entries: Entry[];
  /** the kept rows whose links are read ahead */
  readonly kept: number[];
}

export interface ListRow {
  readonly source: SourceRow;
  readonly data: WriteData;
  readonly isNew: boolean;
}

/** The relations the rows store links of, by link table, with the documents their values name by documentId. */
function gather(ctx: RelationContext, rows: readonly ListRow[]): Map<string, Gathered> {
  const byTable = new Map<string, Gathered>();
  for (const { source, data, isNew } of rows) {
    for (const [name, op] of data.relations) {
      const attr = source.schema.attributes.get(name) as RelationAttribute;
      if (!attr.owner) continue;
      // a kept row whose targets have one holder takes them from other rows as it goes: its links are read then
      if (!isNew && !attr.inverseToMany) continue;
      const shape = ownerLinkShape(ctx, source, attr);
      let g = byTable.get(attr.linkTable);
      if (!g) byTable.set(attr.linkTable, (g = { attr, perLocale: shape.perLocale, entries: [], kept: [] }));
      if (!isNew) g.kept.push(source.id);
      for (const r of namedDocuments(op.kind === 'set' ? op.items : op.connect)) g.entries.push({ doc: r.documentId!, locale: shape.localeFor(r), status: shape.statusFor(r) });
    }
  }
  return byTable;
}

async function readLinks(ctx: RelationContext, linkTable: string, sourceIds: readonly number[]): Promise<Map<number, StoredLink[]>> {
  const links = new Map<number, StoredLink[]>(sourceIds.map((id) => [id, []]));
  for (const ids of inChunks([...new Set(sourceIds)])) {
    const rows = await ctx.store.tx
      .selectFrom(linkTable)
      .select(['source_id', 'target_document_id', 'target_locale', 'target_status', 'inv_ord'])
      .where('source_id', 'in', ids)
      .orderBy('source_id')
      .orderBy('ord')
      .execute();
    for (const { source_id, ...link } of rows) links.get(Number(source_id))!.push(link as StoredLink);
  }
  return links;
}

/**
 * Looks up and locks, for each relation the rows store links of, the documents their values name by
 * documentId and those the kept rows link now. A target not found is only left out here: the row's own
 * write finds it missing and answers the error it always has, at the same point. Answers nothing for
 * fewer than two rows.
 */
export async function placeTargets(ctx: RelationContext, rows: readonly ListRow[]): Promise<PlacedTargets | undefined> {
  if (rows.length < 2) return undefined;
  const byTable = gather(ctx, rows);
  if (byTable.size === 0) return undefined;
  const placed = new PlacedTargets();
  for (const [linkTable, { attr, perLocale, entries, kept }] of byTable) {
    // the links and places read below include those still queued (a component type at two levels of one write)
    await ctx.store.deferred?.flush(ctx.store, linkTable);
    const target = ctx.model.contentTypes.get(attr.target)!;
    const links = await readLinks(ctx, linkTable, kept);
    const docs = [...new Set([...entries.map((e) => e.doc), ...[...links.values()].flat().map((l) => String(l.target_document_id))])];
    // in the mode each row's write would take them (relations.ts)
    const mode = attr.inverseToMany ? 'shared' : 'exclusive';
    const alive = perLocale ? await lockDocumentLocales(ctx.store, target.table, docs, mode) : await lockDocuments(ctx.store, target.table, docs, mode);
    const { present, max } = await lookUpPlaces(ctx, target, linkTable, entries);
    entries.forEach((e, i) => {
      if (present.has(i)) ctx.found.add(keyOf(target, e));
    });
    placed.record(linkTable, { last: new Map(max), locked: new Set(docs), alive, links });
  }
  return placed;
}

/**
 * The places of the targets a row links to and the lock's answer, when they were all found, locked and
 * placed ahead with its list's other rows (`linked`: the documents a kept row links now); else
 * undefined, and the row's write looks them up itself.
 */
export function placesAhead(
  ctx: RelationContext,
  target: ContentType,
  linkTable: string,
  entries: readonly Entry[],
  linked: readonly string[],
): { last: Map<string, number>; alive: ReadonlySet<string> | null } | undefined {
  if (!ctx.placed || !entries.every((e) => ctx.found.has(keyOf(target, e)))) return undefined;
  return ctx.placed.placesOf(
    linkTable,
    entries.map((e) => e.doc),
    linked,
  );
}
