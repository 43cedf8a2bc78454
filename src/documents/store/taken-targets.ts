// A relation whose other side holds one document (one-to-one, one-to-many): a row that links a
// target takes it from every other document's rows. With draft & publish only from rows of the same
// status: a draft write moves the drafts' links, and the published versions keep theirs until that
// write is published, as Strapi 5.54 does (its links name one version's row each).
import type { Component, ContentType, Model, RelationAttribute } from '../../schema/types.js';
import type { Store } from './store.js';
import { lockDocuments } from './document-lock.js';
import { showsLocale } from './relations.js';

/** A target a row now links: its document, and the locale the link names (null: the link names none). */
export interface TakenTarget {
  readonly doc: string;
  readonly locale: string | null;
}

/**
 * Removes the links other documents' rows hold to `targets` in `attr`'s link table. `perLocale`: each
 * target locale is held on its own (a source without locales linking a localized target).
 */
export async function releaseTakenTargets(
  s: Store,
  schema: ContentType | Component,
  row: { readonly id: number; readonly documentId: string | null },
  attr: RelationAttribute,
  targets: readonly TakenTarget[],
  perLocale: boolean,
): Promise<void> {
  if (targets.length === 0) return;
  // a component row stands alone; a document's rows are all its locales and versions
  const versions =
    row.documentId === null || schema.modelType !== 'contentType'
      ? [{ id: row.id, published_at: null }]
      : await s.tx.selectFrom(schema.table).select(['id', 'published_at']).where('document_id', '=', row.documentId).execute();
  const sameDoc = versions.map((r) => Number(r.id));
  const published = schema.modelType === 'contentType' && schema.draftAndPublish ? versions.find((r) => Number(r.id) === row.id)?.published_at != null : null;
  const locales = perLocale ? [...new Set(targets.map((t) => t.locale))] : [null];
  for (const locale of locales) {
    let q = s.tx
      .deleteFrom(attr.linkTable)
      .where(
        'target_document_id',
        'in',
        targets.filter((t) => locale === null || t.locale === locale).map((t) => t.doc),
      )
      .where('source_id', 'not in', sameDoc);
    if (locale !== null) q = q.where(showsLocale(locale));
    if (published !== null) {
      const ofStatus = s.tx
        .selectFrom(schema.table)
        .select('id')
        .where('published_at', published ? 'is not' : 'is', null);
      q = q.where('source_id', 'in', ofStatus);
    }
    await q.execute();
  }
}

/** After a row of `schema` is written by publishing: the targets its links now hold are taken from other documents' published rows. */
export async function releaseTargetsOfRow(s: Store, model: Model, schema: ContentType, row: { readonly id: number; readonly documentId: string }): Promise<void> {
  for (const attr of schema.attributes.values()) {
    if (attr.kind !== 'relation' || !attr.owner || attr.inverseToMany) continue;
    const links = await s.tx.selectFrom(attr.linkTable).select(['target_document_id', 'target_locale']).where('source_id', '=', row.id).execute();
    const target = model.contentTypes.get(attr.target);
    if (!target || links.length === 0) continue;
    // two publishes taking one target take it one after the other (relations.ts: writeOwnerRelation)
    await lockDocuments(
      s,
      target.table,
      links.map((l) => String(l.target_document_id)),
      'exclusive',
    );
    const perLocale = target.localized && !schema.localized;
    await releaseTakenTargets(
      s,
      schema,
      row,
      attr,
      links.map((l) => ({ doc: String(l.target_document_id), locale: perLocale ? (l.target_locale as string | null) : null })),
      perLocale,
    );
  }
}
