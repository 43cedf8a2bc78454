// The names earlier Folio versions gave a schema's tables and columns, so a sync can rename what such
// a version made instead of starting empty tables beside it. Two earlier namings are known:
// - before names were shortened, every name whole (`<collection>_<attribute>_lnk` past 55 characters);
// - before names followed lodash's snake_case, a snake_case that split only a lower-case letter or digit
//   from the capital after it, so digits stayed with their letters (`address1`, not Strapi's
//   `address_1`), acronyms stayed whole (`seotitle`, not `seo_title`), and a content type without
//   collectionName was named after its pluralName (`gadget_items`, not Strapi's singularName).
import { componentTableName, identifier, linkTableName, MAX_IDENTIFIER, tableName } from './identifiers.js';

/** snake_case as Folio wrote it before it followed lodash */
export function earlierSnakeCase(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/-/g, '_')
    .toLowerCase();
}

/** the collectionName an earlier Folio read for a content type without one */
export const earlierTypeCollection = (pluralName: string): string => earlierSnakeCase(pluralName);

/** the collectionName an earlier Folio read for a component without one */
export const earlierComponentCollection = (category: string, name: string): string => `components_${earlierSnakeCase(category)}_${earlierSnakeCase(name)}`;

/** `names` without repeats and without `now`, in order */
const others = (now: string, names: readonly string[]): string[] => [...new Set(names)].filter((n) => n !== now);

/** names an earlier Folio gave the table now named `now`, newest first, from the collection it read */
export const earlierTableNames = (now: string, collection: string): string[] => others(now, [tableName(collection), collection]);

/** names an earlier Folio gave the components table now named `now` */
export const earlierComponentTableNames = (now: string, collection: string): string[] => others(now, [componentTableName(collection), `${collection}_cmps`]);

/** names an earlier Folio gave a relation's link table now named `now`: from its type's earlier collection and the attribute */
export function earlierLinkTableNames(now: string, collection: string, attribute: string): string[] {
  const table = tableName(collection);
  const whole = `${table}_${earlierSnakeCase(attribute)}_lnk`;
  // the link tables it shortened were already named in lodash's snake_case, as now
  const shortened = whole.length <= MAX_IDENTIFIER ? whole : linkTableName(table, attribute);
  return others(now, [shortened, `${collection}_${earlierSnakeCase(attribute)}_lnk`]);
}

/** names an earlier Folio gave an attribute's column now named `now` */
export function earlierColumnNames(now: string, attribute: string): string[] {
  const snake = earlierSnakeCase(attribute);
  return others(now, [identifier([{ name: snake }]), snake]);
}
