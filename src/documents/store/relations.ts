// Relation writes. Links go from a source row to a target *document*; which version of the target a
// reader sees is decided at read time (query/sql/scope.ts), so publishing never re-links.
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { type Component, type ContentType, type Model, type RelationAttribute } from '../../schema/types.js';
import type { RelationOp, RelationRef, WriteData } from '../input/types.js';
import { disconnectVersions, withVersionsOf } from './link-versions.js';
import { applyOp, byDocument, checkConnectDuplicates, positionAnchors, type AnchorLocale, type LinkKey } from './relation-list.js';
import { insertLinks } from './deferred-links.js';
import { lockDocumentLocales, lockDocuments, lockRows } from './document-lock.js';
import { MissingRelationsError } from './missing-relations.js';
import { dpSource, ownerLinkShape, targetLocaleFor } from './owner-link-shape.js';
import { placesAhead, type PlacedTargets, type StoredLink } from './placed-targets.js';
import { insertMany, maxPerKey } from './rows.js';
import { MAX_PARAMETERS } from './store.js';
import { checkAndPlace, checkExists, notFound, type Entry, type TargetContext } from './targets.js';
import { releaseTakenTargets } from './taken-targets.js';

export interface SourceRow {
  readonly id: number;
  readonly documentId: string | null;
  readonly locale: string | null;
  readonly schema: ContentType | Component;
  /** a component row: the entry holding it (at any depth) has draft & publish */
  readonly inDraftAndPublish?: boolean;
}

export interface RelationContext extends TargetContext {
  readonly model: Model;
  /** the targets of the component rows being written, looked up and locked ahead (placed-targets.ts) */
  readonly placed?: PlacedTargets;
  /** where each row of the document's data comes in the order of writing it row by row (walk-order.ts) */
  readonly walk?: WeakMap<WriteData, number>;
}

/**
 * Resolves refs to target documents, checking each exists in the version the link will show.
 * `missingIds`: what a row id naming no row does — refused (set, connect), or dropped (disconnect:
 * Strapi 5.54 ignores it there, while a documentId naming no document is refused everywhere).
 */
async function resolve(
  ctx: RelationContext,
  target: ContentType,
  refs: readonly RelationRef[],
  localeFor: (r: RelationRef) => string | null,
  /** `fromRow`: the status is the version a row id names, not one the client wrote */
  statusFor: (r: RelationRef, fromRow?: boolean) => string | null,
  check: boolean,
  missingIds: 'refuse' | 'drop' = 'refuse',
): Promise<Entry[]> {
  const tx = ctx.store.tx;
  const numeric = refs.filter((r) => r.id !== undefined && r.documentId === undefined).map((r) => r.id!);
  const rowsById = new Map<number, { doc: string; locale: string | null; published: boolean }>();
  if (numeric.length) {
    const rows = await tx.selectFrom(target.table).select(['id', 'document_id', 'locale', 'published_at']).where('id', 'in', numeric).execute();
    for (const r of rows) rowsById.set(Number(r.id), { doc: String(r.document_id), locale: (r.locale as string | null) ?? null, published: r.published_at !== null });
    const missing = numeric.filter((id) => !rowsById.has(id)).length;
    if (missing && missingIds === 'refuse') throw new MissingRelationsError(missing, target.uid);
  }
  const entries: Entry[] = [];
  for (const r of refs) {
    if (r.documentId === undefined && r.id !== undefined) {
      const row = rowsById.get(r.id);
      // a row id names a version: the link keeps its status where links keep the one they name
      if (row) entries.push({ doc: row.doc, locale: target.localized ? row.locale : null, status: statusFor({ ...r, status: row.published ? 'published' : 'draft' }, true) });
    } else entries.push({ doc: r.documentId!, locale: localeFor(r), status: statusFor(r) });
  }
  if (check) await checkExists(ctx, target, entries);
  return entries;
}

/** The documents a disconnect names: documentIds must exist (as Strapi 5.54 checks), row ids may not. */
async function disconnected(
  ctx: RelationContext,
  target: ContentType,
  op: RelationOp,
  localeFor: (r: RelationRef) => string | null,
  statusFor: (r: RelationRef, fromRow?: boolean) => string | null,
): Promise<Entry[]> {
  if (op.kind !== 'change' || op.disconnect.length === 0) return [];
  return await resolve(ctx, target, op.disconnect, localeFor, statusFor, true, 'drop');
}

/** Links that show `locale`'s version of their document: those naming it, and those naming none (every link for null). */
export function showsLocale(locale: string | null, column = 'target_locale'): RawBuilder<SqlBool> {
  if (locale === null) return sql<SqlBool>`1 = 1`;
  return sql<SqlBool>`(${sql.ref(column)} is null or ${sql.ref(column)} = ${locale})`;
}

/** Writes a relation from the side that stores the links. */
export async function writeOwnerRelation(ctx: RelationContext, source: SourceRow, attr: RelationAttribute, op: RelationOp, isNew: boolean): Promise<void> {
  const { target, perLocale, versioned, localeFor, statusFor, storedLocale, key } = ownerLinkShape(ctx, source, attr);
  // a kept component row among others, whose links were read ahead with theirs
  const readAhead = isNew ? undefined : ctx.placed?.linksOf(attr.linkTable, source.id);
  // a link table this write already queued rows for is read below (positions, one-to-one steals)
  if (!isNew && !readAhead) await ctx.store.deferred?.flush(ctx.store, attr.linkTable);
  const tx = ctx.store.tx;
  // each version of one document may be named once
  checkConnectDuplicates(op, perLocale ? localeFor : undefined, versioned);

  // a row inserted by this write holds no links yet: nothing to read or clear
  const currentRows: readonly StoredLink[] = isNew
    ? []
    : (readAhead ??
      (await tx
        .selectFrom(attr.linkTable)
        .select(['target_document_id', 'target_locale', 'target_status', 'inv_ord'])
        .where('source_id', '=', source.id)
        .orderBy('ord')
        .execute()));
  const linked = currentRows.map((r) => ({
    doc: String(r.target_document_id),
    locale: r.target_locale as string | null,
    status: r.target_status as string | null,
    inv: Number(r.inv_ord),
  }));
  // the disconnect list is looked up first: a document missing there is the one named, as Strapi 5.54 applies it first
  const disconnectedEntries = await disconnected(ctx, target, op, localeFor, statusFor);
  const afterDisconnect = versioned ? disconnectVersions(linked, disconnectedEntries, key) : { current: linked, gone: disconnectedEntries.map(key) };
  const disconnect = afterDisconnect.gone;
  // narrowed below once the documents are locked
  let current = afterDisconnect.current;
  const set = op.kind === 'set' ? await resolve(ctx, target, op.items, localeFor, statusFor, false) : [];
  const connect = op.kind === 'change' ? await resolve(ctx, target, op.connect, localeFor, statusFor, false) : [];
  // a component row among others whose targets were looked up, locked and placed together
  const placedAhead =
    isNew || readAhead
      ? placesAhead(
          ctx,
          target,
          attr.linkTable,
          [...set, ...connect],
          linked.map((e) => e.doc),
        )
      : undefined;
  // the rows queued for the table are read below, unless the places are known and no link is taken from another source
  if ((isNew || readAhead) && !(placedAhead && attr.inverseToMany)) await ctx.store.deferred?.flush(ctx.store, attr.linkTable);
  // the documents linked are kept from being deleted until this write ends; a target held by one source is
  // taken by one write at a time, so the next one to take it sees (and removes) the link this one makes
  const lockedDocs = [...set, ...connect, ...linked].map((e) => e.doc);
  const lockMode = attr.inverseToMany ? 'shared' : 'exclusive';
  // a document (or, for links naming a locale, a locale version) deleted since the links were read lost
  // them with it: the list rewritten below must not bring one back
  const alive = placedAhead
    ? placedAhead.alive
    : perLocale
      ? await lockDocumentLocales(ctx.store, target.table, lockedDocs, lockMode)
      : await lockDocuments(ctx.store, target.table, lockedDocs, lockMode);
  const aliveKey: LinkKey = perLocale ? key : byDocument;
  if (alive && linked.some((e) => !alive.has(aliveKey(e)))) current = current.filter((e) => alive.has(aliveKey(e)));
  // checked together with each target's last position on its own side, which new links continue
  const lastInv = placedAhead?.last ?? (await checkAndPlace(ctx, target, attr.linkTable, [...set, ...connect]));
  const anchorLocale: AnchorLocale | undefined = perLocale ? (p, item) => p.locale ?? item.locale ?? ctx.defaultLocale : undefined;
  await checkExists(ctx, target, positionAnchors(op, connect, current, key, anchorLocale));
  // a target sent again keeps its place on the other side: it is the same link, not a new one
  const invOf = new Map(current.map((e) => [key(e), e.inv]));
  const next = applyOp<Entry & { inv?: number }>(current, op, connect, set, disconnect, attr.toMany, key, anchorLocale, versioned ? withVersionsOf : undefined).map((e) =>
    e.inv === undefined && invOf.has(key(e)) ? { ...e, inv: invOf.get(key(e))! } : e,
  );

  // a kept row placed ahead has its links replaced with the list's others, once the rows are written
  const replaceLater = !isNew && placedAhead !== undefined && ctx.store.deferred !== undefined;
  if (!isNew && !replaceLater) await tx.deleteFrom(attr.linkTable).where('source_id', '=', source.id).execute();
  const fresh = next.filter((e) => e.inv === undefined).map((e) => e.doc);
  const maxInv = new Map(fresh.map((doc) => [doc, lastInv.get(doc) ?? 0]));
  // the other side holds one document: taking these targets takes them from other sources
  if (!attr.inverseToMany) {
    await releaseTakenTargets(
      ctx.store,
      source.schema,
      source,
      attr,
      next.map((e) => ({ doc: e.doc, locale: storedLocale(e) })),
      perLocale,
    );
  }
  const links = next.map((e, i) => {
    let inv = e.inv;
    if (inv === undefined) {
      inv = (maxInv.get(e.doc) ?? 0) + 1;
      maxInv.set(e.doc, inv);
    }
    return { source_id: source.id, target_document_id: e.doc, target_locale: storedLocale(e), target_status: e.status, ord: i + 1, inv_ord: inv };
  });
  if (replaceLater) ctx.store.deferred!.replace(attr.linkTable, { column: 'source_id', id: source.id }, links);
  else await insertLinks(ctx.store, attr.linkTable, links, isNew);
  ctx.placed?.moveOn(attr.linkTable, maxInv);
}

type OwnerVersion = 'draft' | 'published';
const OWNER_VERSIONS: readonly OwnerVersion[] = ['draft', 'published'];

const refsOf = (op: RelationOp): readonly RelationRef[] => (op.kind === 'set' ? op.items : [...op.connect, ...op.disconnect]);
const namesStatus = (r: RelationRef): boolean => r.status !== undefined && r.status !== null;

/** The op's refs for one version of the owners: those naming its status or none. */
function opInVersion(op: RelationOp, version: OwnerVersion): RelationOp {
  const mine = (r: RelationRef): boolean => !namesStatus(r) || r.status === version;
  return op.kind === 'set' ? { kind: 'set', items: op.items.filter(mine) } : { ...op, connect: op.connect.filter(mine), disconnect: op.disconnect.filter(mine) };
}

/** The op's refs that name `locale` (refs without one name the default locale). */
function opInLocale(op: RelationOp, locale: string, defaultLocale: string): RelationOp {
  const mine = (r: RelationRef): boolean => (r.locale ?? defaultLocale) === locale;
  return op.kind === 'set' ? { kind: 'set', items: op.items.filter(mine) } : { ...op, connect: op.connect.filter(mine), disconnect: op.disconnect.filter(mine) };
}

/**
 * Writes a relation from the mappedBy side: it edits the links the owner documents' rows hold.
 * The list edited is the one a reader of this side sees in one locale: a localized self edits its
 * own locale; a non-localized self edits each locale its refs name, separately.
 */
export async function writeInverseRelation(ctx: RelationContext, self: SourceRow & { schema: ContentType }, attr: RelationAttribute, op: RelationOp): Promise<void> {
  const owner = ctx.model.contentTypes.get(attr.target)!;
  // a self without locales edits each locale's owners on their own: one document in two locales is two owners
  // and each version of owners with draft & publish, from a self without it (their lists are written apart below)
  checkConnectDuplicates(op, owner.localized && !self.schema.localized ? (r) => r.locale ?? ctx.defaultLocale : undefined, owner.draftAndPublish && !dpSource(self));
  await ctx.store.deferred?.flush(ctx.store, attr.linkTable);
  if (!owner.localized) return writeInverseInLocale(ctx, self, attr, op, null);
  if (self.schema.localized) return writeInverseInLocale(ctx, self, attr, op, self.locale);
  const locales = new Set(refsOf(op).map((r) => r.locale ?? ctx.defaultLocale));
  // a set is the whole list, in every locale: one that links this document and isn't named is emptied, as in Strapi 5.54
  if (op.kind === 'set') for (const locale of await linkingOwners(ctx, owner, attr, self.documentId!, 'locale')) locales.add(locale);
  if (locales.size === 0) locales.add(ctx.defaultLocale);
  for (const locale of locales) await writeInverseInLocale(ctx, self, attr, opInLocale(op, locale, ctx.defaultLocale), locale);
}

/** What the owner rows whose links name `documentId` hold in `column`, once each: their documents, or their locales. */
async function linkingOwners(ctx: RelationContext, owner: ContentType, attr: RelationAttribute, documentId: string, column: 'document_id' | 'locale'): Promise<string[]> {
  const rows = await ctx.store.tx
    .selectFrom(`${attr.linkTable} as l`)
    .innerJoin(`${owner.table} as a`, 'a.id', 'l.source_id')
    .select(`a.${column} as v`)
    .distinct()
    .where('l.target_document_id', '=', documentId)
    .execute();
  return rows.map((r) => String(r.v));
}

async function writeInverseInLocale(
  ctx: RelationContext,
  self: SourceRow & { schema: ContentType },
  attr: RelationAttribute,
  op: RelationOp,
  locale: string | null,
  version?: OwnerVersion,
): Promise<void> {
  const owner = ctx.model.contentTypes.get(attr.target)!;
  // a self without draft & publish holds a list per version of the owners: an item naming a status edits
  // that version's list only, so each list is written on its own with the items that name it or no status
  if (version === undefined && owner.draftAndPublish && !dpSource(self) && refsOf(op).some(namesStatus)) {
    for (const v of OWNER_VERSIONS) await writeInverseInLocale(ctx, self, attr, opInVersion(op, v), locale, v);
    return;
  }
  const ownerAttr = owner.attributes.get(attr.inverse!) as RelationAttribute;
  const tx = ctx.store.tx;
  const selfDoc = self.documentId!;
  const linkLocale = self.schema.localized && !owner.localized ? self.locale : null;
  // both sides with draft & publish: a write edits the owners' drafts; publishing this document
  // carries the links over to their published rows (publish.ts), as draft and published pair up
  const draftsOnly = (dpSource(self) && owner.draftAndPublish) || version === 'draft';
  const publishedOnly = version === 'published';
  const ownerLocale = (): string | null => locale;
  // a longhand status picks which versions of an owner with draft & publish hold the link (rule 6)
  const ownerStatus = (r: RelationRef): string | null => (owner.draftAndPublish && !dpSource(self) ? (r.status ?? null) : null);
  const disconnect = (await disconnected(ctx, owner, op, ownerLocale, ownerStatus)).map(byDocument);
  const set = op.kind === 'set' ? await resolve(ctx, owner, op.items, ownerLocale, ownerStatus, true) : [];
  const connect = op.kind === 'change' ? await resolve(ctx, owner, op.connect, ownerLocale, ownerStatus, true) : [];
  // The owners' links are edited here, so their writers must wait for this write and it for them, and
  // the links are read only once they are locked. The owner's own write holds its rows with the writer
  // lock and takes this document's shared (PostgreSQL's FOR NO KEY UPDATE and FOR KEY SHARE, which
  // don't wait for each other): without the owners' writer lock here, `tag.articles` connecting an
  // article while `article.tags` connected the tag both found no link and stored it twice, and an
  // owner rewriting its list brought back a link removed here. A `set` also removes the links of
  // owners it doesn't name: those are locked too.
  const named = [...set, ...connect].map((e) => e.doc);
  const owners = named.concat(disconnect);
  if (op.kind === 'set') owners.push(...(await linkingOwners(ctx, owner, attr, selfDoc, 'document_id')));
  const there = await lockDocuments(ctx.store, owner.table, owners, 'writer');
  // one deleted since it was looked up is missing, as it would have been a moment later
  const gone = named.find((doc) => !there.has(doc));
  if (gone !== undefined) throw notFound(gone, locale);

  let cur = tx
    .selectFrom(`${attr.linkTable} as l`)
    .innerJoin(`${owner.table} as a`, 'a.id', 'l.source_id')
    .select(['l.source_id', 'a.document_id', 'l.inv_ord'])
    .where('l.target_document_id', '=', selfDoc);
  if (linkLocale !== null) cur = cur.where(showsLocale(linkLocale, 'l.target_locale'));
  if (locale !== null) cur = cur.where('a.locale', '=', locale);
  if (draftsOnly) cur = cur.where('a.published_at', 'is', null);
  if (publishedOnly) cur = cur.where('a.published_at', 'is not', null);
  const currentRows = await cur.orderBy('l.inv_ord').orderBy('l.id').execute();
  const current: Entry[] = [];
  const seen = new Set<string>();
  // each owner row's place in this document's list, as its link rows hold it (NaN: its rows disagree)
  const placeOf = new Map<number, number>();
  for (const r of currentRows) {
    const doc = String(r.document_id);
    if (!seen.has(doc)) {
      seen.add(doc);
      current.push({ doc, locale, status: null });
    }
    const id = Number(r.source_id);
    const inv = Number(r.inv_ord);
    placeOf.set(id, placeOf.has(id) && placeOf.get(id) !== inv ? NaN : inv);
  }
  await checkExists(ctx, owner, positionAnchors(op, connect, current));
  const next = applyOp(current, op, connect, set, disconnect, attr.toMany);

  /** the owner rows each entry names: its document, in the locale and (when given) its status */
  const rowsOf = async (entries: readonly Entry[]): Promise<Map<Entry, number[]>> => {
    const out = new Map<Entry, number[]>();
    if (entries.length === 0) return out;
    let q = tx
      .selectFrom(owner.table)
      .select(['id', 'document_id', 'published_at'])
      .where('document_id', 'in', [...new Set(entries.map((e) => e.doc))]);
    if (locale !== null) q = q.where('locale', '=', locale);
    if (draftsOnly) q = q.where('published_at', 'is', null);
    if (publishedOnly) q = q.where('published_at', 'is not', null);
    const byDoc = new Map<string, { id: unknown; published_at: unknown }[]>();
    for (const r of await q.execute()) {
      const doc = String(r.document_id);
      const list = byDoc.get(doc);
      if (list) list.push(r);
      else byDoc.set(doc, [r]);
    }
    for (const e of entries) {
      out.set(
        e,
        (byDoc.get(e.doc) ?? []).filter((r) => e.status === null || (e.status === 'draft') === (r.published_at === null)).map((r) => Number(r.id)),
      );
    }
    return out;
  };
  const keep = new Set(next.map((e) => e.doc));
  const removed = current.filter((e) => !keep.has(e.doc));
  const removedRows = [...(await rowsOf(removed)).values()].flat();
  // an owner without locales may link this document in several locales: only this locale's links are edited here
  const thisLocale = showsLocale(linkLocale);
  if (removedRows.length) await tx.deleteFrom(attr.linkTable).where('target_document_id', '=', selfDoc).where('source_id', 'in', removedRows).where(thisLocale).execute();

  const had = new Set(current.map((e) => e.doc));
  const rows = await rowsOf(next);
  // an owner holding one link (oneToOne, manyToOne) drops the one it has for this one: two writes naming
  // the same owner at once would each drop what they saw and both add theirs, leaving it two links. Any
  // owner linked is kept from being deleted until this write ends; one deleted meanwhile is not found
  const added = next.filter((e) => !had.has(e.doc));
  const still = await lockRows(
    ctx.store,
    owner.table,
    added.flatMap((e) => rows.get(e) ?? []),
    ownerAttr.toMany ? 'shared' : 'exclusive',
  );
  for (const e of added) {
    const ids = rows.get(e) ?? [];
    const alive = ids.filter((id) => still.has(id));
    if (ids.length > 0 && alive.length === 0) throw notFound(e.doc, locale);
    rows.set(e, alive);
  }
  // one batch of statements for the whole list, however long: a statement or two per entry was 20,000
  // round trips for the 10,000 documents one write may name
  const addedIds = added.flatMap((e) => rows.get(e) ?? []);
  if (!ownerAttr.toMany && addedIds.length) {
    for (const ids of slices(addedIds)) {
      let taken = tx.deleteFrom(attr.linkTable).where('source_id', 'in', ids);
      // an owner without locales holding one localized document holds it once per locale, as in Strapi: linking
      // this document's fr version leaves its en version linked (omgg-backend's gallery ↔ game)
      if (linkLocale !== null) taken = taken.where((eb) => eb.or([eb('target_document_id', '<>', selfDoc), eb('target_locale', 'is', null), eb('target_locale', '=', linkLocale)]));
      await taken.execute();
    }
  }
  const ordOf = ownerAttr.toMany && addedIds.length ? await maxPerKey(ctx.store, attr.linkTable, 'source_id', 'ord', addedIds) : new Map<number, number>();
  const inserts: Record<string, unknown>[] = [];
  // links kept whose place on this side changes: [owner row, new place]
  const moved: [number, number][] = [];
  for (const [i, e] of next.entries()) {
    const ids = rows.get(e) ?? [];
    if (!had.has(e.doc)) {
      for (const id of ids)
        inserts.push({ source_id: id, target_document_id: selfDoc, target_locale: linkLocale, target_status: null, ord: (ordOf.get(id) ?? 0) + 1, inv_ord: i + 1 });
    } else for (const id of ids) if (placeOf.get(id) !== i + 1) moved.push([id, i + 1]);
  }
  await insertMany(ctx.store, attr.linkTable, inserts);
  for (const part of slices(moved)) {
    const place = sql<number>`case ${sql.ref('source_id')} ${sql.join(
      // numbers this write computed, written as literals: a bound THEN value has no type PostgreSQL can infer
      part.map(([id, inv]) => sql`when ${sql.lit(id)} then ${sql.lit(inv)}`),
      sql` `,
    )} end`;
    await tx
      .updateTable(attr.linkTable)
      .set({ inv_ord: place })
      .where('target_document_id', '=', selfDoc)
      .where(
        'source_id',
        'in',
        part.map(([id]) => id),
      )
      .where(thisLocale)
      .execute();
  }
}

/** `list` in parts small enough for the bound parameters of one statement (at most three per item, and a few more) */
function slices<T>(list: readonly T[]): T[][] {
  const step = Math.floor(MAX_PARAMETERS / 4);
  const out: T[][] = [];
  for (let from = 0; from < list.length; from += step) out.push(list.slice(from, from + step));
  return out;
}

/**
 * A relation that can never hold a link (its partner doesn't name it back): the rows and documents its
 * value names must exist, as Strapi 5.54 checks them ("1 relation(s) … do not exist"), and nothing is written.
 */
export async function checkUnlinkedRelation(ctx: RelationContext, source: SourceRow, attr: RelationAttribute, op: RelationOp): Promise<void> {
  const target = ctx.model.contentTypes.get(attr.target);
  if (!target) return;
  const localeFor = targetLocaleFor(ctx, source, target);
  const statusFor = (): null => null;
  if (op.kind === 'set') await resolve(ctx, target, op.items, localeFor, statusFor, true);
  else {
    await disconnected(ctx, target, op, localeFor, statusFor);
    await resolve(ctx, target, op.connect, localeFor, statusFor, true);
  }
}
