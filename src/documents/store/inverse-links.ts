// When a document with draft & publish is published, the links that point at it from owners which
// also have draft & publish follow its draft: their published rows get exactly the links their
// draft rows hold (drafts pair with drafts, published rows with published rows). Writes from this
// side touch only the owners' drafts (relations.ts), so this is where those writes go live.
import { showsLocale } from './relations.js';
import type { ContentType, Model, RelationAttribute } from '../../schema/types.js';
import { insertMany, type Store } from './rows.js';
import { lockDocuments, lockFreeDocuments } from './document-lock.js';

interface LinkRow {
  source_id: number;
  target_locale: string | null;
  target_status: string | null;
  ord: number;
  inv_ord: number;
  document_id: string;
  locale: string | null;
}

/**
 * The links to `documentId` from `owner` rows (in `locale`; showing `linkLocale`; of the documents `from`
 * only, when given), aliased `l` and `a`.
 */
function linksTo(s: Store, owner: ContentType, attr: RelationAttribute, documentId: string, locale: string | null, linkLocale: string | null, from?: readonly string[]) {
  let q = s.tx.selectFrom(`${attr.linkTable} as l`).innerJoin(`${owner.table} as a`, 'a.id', 'l.source_id').where('l.target_document_id', '=', documentId);
  if (locale !== null) q = q.where('a.locale', '=', locale);
  if (linkLocale !== null) q = q.where(showsLocale(linkLocale, 'l.target_locale'));
  if (from !== undefined) q = q.where('a.document_id', 'in', from);
  return q;
}

async function linksFrom(
  s: Store,
  owner: ContentType,
  attr: RelationAttribute,
  documentId: string,
  locale: string | null,
  linkLocale: string | null,
  published: boolean,
  from?: readonly string[],
): Promise<LinkRow[]> {
  const q = linksTo(s, owner, attr, documentId, locale, linkLocale, from)
    .select(['l.source_id', 'l.target_locale', 'l.target_status', 'l.ord', 'l.inv_ord', 'a.document_id', ...(owner.localized ? ['a.locale'] : [])])
    .where('a.published_at', published ? 'is not' : 'is', null);
  return (await q.execute()).map((r: Record<string, unknown>) => ({
    source_id: Number(r['source_id']),
    target_locale: (r['target_locale'] as string | null) ?? null,
    target_status: (r['target_status'] as string | null) ?? null,
    ord: Number(r['ord']),
    inv_ord: Number(r['inv_ord']),
    document_id: String(r['document_id']),
    locale: (r['locale'] as string | null | undefined) ?? null,
  }));
}

interface Links {
  readonly drafts: LinkRow[];
  readonly live: LinkRow[];
  /** owner documents with links here that were left unlocked (another writer held them) */
  readonly busy: string[];
}

/**
 * The links to `documentId` from the owners' drafts and from their published rows, read once the owner
 * documents holding them are locked: an owner published at the same time copies its draft's links to
 * its published row itself, and read before its commit, its new link was copied a second time here
 * (PostgreSQL, an article and its tag published together: 35 of 40 ended with the link twice). Locked,
 * this waits for that publish and then reads its links; an owner waiting on this lock publishes after it.
 */
async function lockedLinks(
  s: Store,
  owner: ContentType,
  attr: RelationAttribute,
  documentId: string,
  locale: string | null,
  linkLocale: string | null,
  skipBusy = false,
): Promise<Links> {
  const read = async (): Promise<Links> => ({
    drafts: await linksFrom(s, owner, attr, documentId, locale, linkLocale, false),
    live: await linksFrom(s, owner, attr, documentId, locale, linkLocale, true),
    busy: [],
  });
  if (!s.dialect.rowLocks) return read();
  // the owners to lock, in one statement: most documents published have none, and need no more
  const found = await linksTo(s, owner, attr, documentId, locale, linkLocale).select('a.document_id').distinct().execute();
  const linking = found.map((r: Record<string, unknown>) => String(r['document_id']));
  if (linking.length === 0) return { drafts: [], live: [], busy: [] };
  const owners = linking.filter((d) => d !== documentId);
  if (owners.length === 0) return read();
  if (!skipBusy) {
    await lockDocuments(s, owner.table, owners, 'writer');
    return read();
  }
  const held = await lockFreeDocuments(s, owner.table, owners);
  const mine = (l: LinkRow): boolean => l.document_id === documentId || held.has(l.document_id);
  const again = await read();
  // an owner another writer holds, whose draft (as committed) links here, is carried to after the
  // commit: that writer may be an edit of its draft, which carries nothing (its publish would)
  const busy = [...new Set(again.drafts.filter((l) => !mine(l)).map((l) => l.document_id))];
  return { drafts: again.drafts.filter(mine), live: again.live.filter(mine), busy };
}

export async function carryInverseLinks(s: Store, model: Model, type: ContentType, documentId: string, locale: string | null): Promise<void> {
  for (const a of type.attributes.values()) {
    if (a.kind !== 'relation' || a.owner) continue;
    const owner = model.contentTypes.get(a.target)!;
    if (!owner.draftAndPublish) continue;
    const ownerLocale = type.localized && owner.localized ? locale : null;
    // an owner without locales links each locale version of this document on its own: publishing one
    // version carries that version's links only (a video's published link to a theme's en version stays
    // when the theme's fr version is published; it was dropped, and with it what the video showed)
    const linkLocale = type.localized && !owner.localized ? locale : null;
    const ownerAttr = owner.attributes.get(a.inverse!) as RelationAttribute;
    const { drafts, live } = await lockedLinks(s, owner, ownerAttr, documentId, ownerLocale, linkLocale);
    await dropLinks(
      s,
      ownerAttr.linkTable,
      live.map((l) => l.source_id),
      linkLocale,
      documentId,
    );
    if (drafts.length === 0) continue;
    await linkPublished(s, ownerAttr, await publishedCopies(s, owner, drafts, documentId, ownerLocale, () => true), linkLocale);
  }
}

/**
 * Writes the links published rows take from their drafts. An owner holding one document (manyToOne,
 * oneToOne) that now names this one no longer names the one it had (its links showing `linkLocale`; null:
 * all): its published row follows its draft there too, as in Strapi.
 */
async function linkPublished(s: Store, attr: RelationAttribute, rows: LinkInsert[], linkLocale: string | null): Promise<void> {
  if (rows.length === 0) return;
  if (!attr.toMany)
    await dropLinks(
      s,
      attr.linkTable,
      rows.map((r) => r.source_id),
      linkLocale,
    );
  await insertMany(s, attr.linkTable, rows);
}

type LinkInsert = {
  source_id: number;
  target_document_id: string;
  target_locale: string | null;
  target_status: string | null;
  ord: number;
  inv_ord: number;
};

/** The links the drafts hold, made for their documents' published rows (`keep` chooses which of those get one). */
async function publishedCopies(
  s: Store,
  owner: ContentType,
  drafts: readonly LinkRow[],
  documentId: string,
  ownerLocale: string | null,
  keep: (publishedId: number) => boolean,
): Promise<LinkInsert[]> {
  let q = s.tx
    .selectFrom(owner.table)
    .select(['id', 'document_id', ...(owner.localized ? ['locale'] : [])])
    .where('document_id', 'in', [...new Set(drafts.map((d) => d.document_id))])
    .where('published_at', 'is not', null);
  if (ownerLocale !== null) q = q.where('locale', '=', ownerLocale);
  const published = new Map((await q.execute()).map((r: Record<string, unknown>) => [`${String(r['document_id'])}|${String(r['locale'] ?? '')}`, Number(r['id'])]));
  return drafts.flatMap((d) => {
    const pubId = published.get(`${d.document_id}|${d.locale ?? ''}`);
    if (pubId === undefined || !keep(pubId)) return [];
    return [{ source_id: pubId, target_document_id: documentId, target_locale: d.target_locale, target_status: d.target_status, ord: d.ord, inv_ord: d.inv_ord }];
  });
}

/** Removes the links `sources` hold (to `target` only, when given; in `linkLocale` when given). */
async function dropLinks(s: Store, linkTable: string, sources: readonly number[], linkLocale: string | null, target?: string): Promise<void> {
  if (sources.length === 0) return;
  let q = s.tx.deleteFrom(linkTable).where('source_id', 'in', sources).where(showsLocale(linkLocale));
  if (target !== undefined) q = q.where('target_document_id', '=', target);
  await q.execute();
}

/**
 * One-way relations from a type to itself (an article's `related`): as Strapi 5.54's self-referential
 * sync, publishing a document gives the published versions of the other documents whose drafts link it
 * the links those drafts hold (added to the links they had; a to-one link is replaced).
 */
export async function carrySelfLinks(s: Store, type: ContentType, documentId: string, locale: string | null): Promise<void> {
  for (const a of type.attributes.values()) {
    if (a.kind !== 'relation' || !a.owner || a.inverse !== undefined || a.target !== type.uid) continue;
    const ownerLocale = type.localized ? locale : null;
    // the owners are documents of this type, which may be publishing at once and carrying links to this
    // one in turn: waiting for each other would deadlock, so a busy owner is skipped now
    const links = await lockedLinks(s, type, a, documentId, ownerLocale, null, true);
    await addSelfLinks(s, type, a, documentId, ownerLocale, links);
    if (links.busy.length === 0) continue;
    // and carried once this write has committed and holds nothing: its published version missed the
    // link until its next publish when the writer holding it was an edit of its draft
    if (!s.afterCommit) throw new Error('a publish carrying links needs a write that runs work after its commit');
    const owners = links.busy;
    s.afterCommit.add((later) => carrySelfLinksFrom(later, type, a, documentId, ownerLocale, owners));
  }
}

/**
 * The carry to owners a publish skipped, in a transaction of its own after the publish's commit, holding
 * nothing when it starts. It takes the locks an edit of those owners linking this document takes, in the
 * same order (the owners', then this document's shared against its deletion): it waits for the owners'
 * writers and makes no cycle of waits that such an edit doesn't already make.
 */
async function carrySelfLinksFrom(s: Store, type: ContentType, a: RelationAttribute, documentId: string, ownerLocale: string | null, owners: readonly string[]): Promise<void> {
  await lockDocuments(s, type.table, owners, 'writer');
  await lockDocuments(s, type.table, [documentId], 'shared');
  await addSelfLinks(s, type, a, documentId, ownerLocale, {
    drafts: await linksFrom(s, type, a, documentId, ownerLocale, null, false, owners),
    live: await linksFrom(s, type, a, documentId, ownerLocale, null, true, owners),
    busy: [],
  });
}

/** Gives the owners' published rows that lack a link to `documentId` the links their drafts hold to it. */
async function addSelfLinks(s: Store, type: ContentType, a: RelationAttribute, documentId: string, ownerLocale: string | null, links: Links): Promise<void> {
  const drafts = links.drafts.filter((d) => d.document_id !== documentId);
  if (drafts.length === 0) return;
  const live = new Set(links.live.map((l) => l.source_id));
  await linkPublished(s, a, await publishedCopies(s, type, drafts, documentId, ownerLocale, (id) => !live.has(id)), null);
}
