// The links that point at a document, or at one locale version of it, removed when it is deleted.
// A link from a localized type's row shows the target in the row's own locale; a link from any other
// source (a type without locales, a component) names the locale it shows. Links to one locale must
// go with that version, as Strapi 5.54 drops them: left in place, they came back when a new version in
// that locale was made later.
import type { ContentType, Model } from '../../schema/types.js';
import type { Store } from './rows.js';

/** the owner sides of relations to `type`, with the schema holding each */
function linksTo(model: Model, type: ContentType): { table: string; source: { table: string; localized: boolean } }[] {
  const out: { table: string; source: { table: string; localized: boolean } }[] = [];
  for (const schema of [...model.contentTypes.values(), ...model.components.values()]) {
    const localized = schema.modelType === 'contentType' && schema.localized;
    for (const a of schema.attributes.values()) {
      if (a.kind === 'relation' && a.owner && a.target === type.uid) out.push({ table: a.linkTable, source: { table: schema.table, localized } });
    }
  }
  return out;
}

/** Removes the links to `documentId`: all of them (`locale` null), or those showing its `locale` version. */
export async function dropLinksToDocument(s: Store, model: Model, type: ContentType, documentId: string, locale: string | null): Promise<void> {
  for (const link of linksTo(model, type)) {
    let q = s.tx.deleteFrom(link.table).where('target_document_id', '=', documentId);
    if (locale !== null) {
      q = link.source.localized ? q.where('source_id', 'in', s.tx.selectFrom(link.source.table).select('id').where('locale', '=', locale)) : q.where('target_locale', '=', locale);
    }
    await q.execute();
  }
}
