// Root `page`/`pageSize`, `start`/`limit` on the routes where Strapi 5.54 reads them with its query
// converter (the users routes, the media library's flat list, one-document content reads) rather than
// as a content list's pagination.
import { PaginationError, ValidationError } from '../../errors.js';

/** The query without `keys`, or itself when it has none of them. */
function without(query: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  if (!keys.some((k) => query[k] !== undefined)) return query;
  const rest = { ...query };
  for (const k of keys) delete rest[k];
  return rest;
}

const ROOT_PAGES: readonly string[] = ['page', 'pageSize'];

/** The query without root `page`/`pageSize`, which these routes read apart (checkRootPages). */
export function withoutRootPages(query: Record<string, unknown>): Record<string, unknown> {
  return without(query, ROOT_PAGES);
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

/**
 * Root `start`/`limit` as Strapi's converter reads them: the value as a number (a one-item list is its
 * item), a whole number from 0 on (a limit may be -1), else its "convert…QueryParams" 400.
 */
export function rootOffsets(query: Record<string, unknown>): { start: number | null; limit: number | null } {
  const n = (v: unknown, name: 'start' | 'limit'): number => {
    const x = typeof v === 'string' || Array.isArray(v) ? Number(v) : Number.NaN;
    if (!Number.isInteger(x) || (x < 0 && !(name === 'limit' && x === -1))) {
      throw new ValidationError(`${name === 'start' ? 'convertStartQueryParams' : 'convertLimitQueryParams'} expected a positive integer got ${x}`);
    }
    return x;
  };
  return {
    start: query['start'] === undefined ? null : n(query['start'], 'start'),
    limit: query['limit'] === undefined ? null : n(query['limit'], 'limit'),
  };
}

const PAGING: readonly string[] = ['page', 'pageSize', 'start', 'limit', 'pagination'];

/** The query without any paging parameter (root or `pagination`), or itself when it has none. */
export function withoutPaging(query: Record<string, unknown>): Record<string, unknown> {
  return without(query, PAGING);
}

/**
 * A one-document query as Strapi 5.54 reads it, paged by nothing: `parse` reads it without its paging
 * parameters; root `page`/`pageSize` and `start`/`limit` are then checked as its query converter checks
 * them, and the `pagination` object is left unread.
 */
export function readUnpaged<T>(query: Record<string, unknown>, parse: (rest: Record<string, unknown>) => T): T {
  const rest = withoutPaging(query);
  const out = parse(rest);
  if (rest !== query) {
    checkRootPages(query);
    rootOffsets(query);
  }
  return out;
}
