// Attributes Strapi 5's model gives a type that Folio's model leaves out of queries: the admin
// authors every content type carries, `localizations` (on every content type, localized or not;
// filters on a localized type's are served), `locale` of a type without locales, and the media
// library's links and folder, and a role's permissions (Folio serves them to populate only). Strapi refuses
// them in filters, sort and fields as it refuses a private attribute — at their own path — where a
// name no model knows is reported at its parent's; clients reading `details.path` see the difference.
// All are relations to Strapi but `related`, which is polymorphic: a sort direction after a relation is
// read as a key one level deeper, after `related` it is not.
import { FILE_UID, ROLE_UID, type Component, type ContentType } from '../../schema/types.js';

export type StrapiOnlyKind = 'relation' | 'polymorphic' | 'scalar';

const ON_EVERY_TYPE: ReadonlySet<string> = new Set(['createdBy', 'updatedBy', 'localizations']);

export function strapiOnlyAttribute(schema: ContentType | Component, name: string): StrapiOnlyKind | null {
  if (schema.modelType !== 'contentType') return null;
  if (ON_EVERY_TYPE.has(name)) return 'relation';
  // every Strapi 5 type has a locale column; where the type isn't localized it is refused as a hidden field
  if (name === 'locale' && !schema.localized) return 'scalar';
  if (schema.uid === ROLE_UID) return name === 'permissions' ? 'relation' : null;
  if (schema.uid !== FILE_UID) return null;
  return name === 'folder' ? 'relation' : name === 'related' ? 'polymorphic' : null;
}

export function isStrapiOnlyAttribute(schema: ContentType | Component, name: string): boolean {
  return strapiOnlyAttribute(schema, name) !== null;
}

/** Those Strapi marks private (the admin authors, a file's folder): a sort names them among private attributes. */
export function isPrivateInStrapi(name: string): boolean {
  return name === 'createdBy' || name === 'updatedBy' || name === 'folder';
}

/** `createdBy`/`updatedBy`: relations to the admin panel's users (see admin-model.ts). */
export function isAdminAuthor(schema: ContentType | Component, name: string): boolean {
  return schema.modelType === 'contentType' && (name === 'createdBy' || name === 'updatedBy');
}
