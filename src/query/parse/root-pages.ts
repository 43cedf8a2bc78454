// Root `page`/`pageSize` where Strapi 5.54 checks them and then ignores them (see checkRootPages).
import { PaginationError } from '../../errors.js';

/** The query without root `page`/`pageSize`, which these routes read apart (checkRootPages). */
export function withoutRootPages(query: Record<string, unknown>): Record<string, unknown> {
  if (query['page'] === undefined && query['pageSize'] === undefined) return query;
  const rest = { ...query };
  delete rest['page'];
  delete rest['pageSize'];
  return rest;
}

/**
 * Root `page`/`pageSize` on the routes that list everything (/users, /users/count, the media library's
 * flat list), as Strapi 5.54 reads them there, after the rest of the query is checked: beside root
 * `start`/`limit` they are its "must be in the pagination object" 400, each must read as a whole number
 * above 0, and then they change nothing — those routes answer every row whatever page is asked.
 * (Content lists refuse them outright, in parsePagination.)
 */
export function checkRootPages(query: Record<string, unknown>): void {
  const pages = (['page', 'pageSize'] as const).filter((k) => query[k] !== undefined);
  if (pages.length === 0) return;
  if (query['start'] !== undefined || query['limit'] !== undefined) {
    throw new PaginationError('Invalid pagination attributes. The page parameters are incorrect and must be in the pagination object');
  }
  for (const name of pages) {
    const v = query[name];
    const n = typeof v === 'string' || Array.isArray(v) ? Number(v) : Number.NaN;
    if (!Number.isInteger(n) || n <= 0) throw new PaginationError(`Invalid '${name}' parameter. Expected an integer > 0, received: ${String(v)}`);
  }
}
