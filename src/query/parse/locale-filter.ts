// Strapi 5 reads a `locale` key at the top of `filters` as the locale selection itself: the
// `locale` parameter (or the default locale) then selects nothing, so `?locale=en&filters[locale]=fr`
// lists the French versions and `filters[locale][$ne]=en` every other locale (behaviour.md §13 #26).
import type { ContentType } from '../../schema/types.js';

/** Whether the top of `filters` names `locale` on a localized type, so that it selects the locales read. */
export function filtersChooseLocale(type: ContentType, filters: unknown): boolean {
  return type.localized && typeof filters === 'object' && filters !== null && !Array.isArray(filters) && Object.hasOwn(filters, 'locale');
}
