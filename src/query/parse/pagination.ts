// Pagination (behaviour.md §5.3): page or offset mode, clamped to the configured limits, meta
// always showing the effective values. Numbers are read and refused as Strapi's converters do.
import { PaginationError, ValidationError } from '../../errors.js';
import type { Pagination } from '../ast.js';
import type { RestConfig } from '../../config/types.js';
import { isObj, isPoison } from './context.js';

/**
 * A pagination number read as Strapi reads it, with JavaScript's Number(): `1e1` is 10, an empty
 * value is 0; NaN when it is no number. What follows decides like Strapi's converters, so their
 * answers (a clamp, or their 400) are the same.
 */
function numberOf(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string') return Number(v);
  // a list is read through its text, as Number() reads it: one entry (`pagination[page][0]=2`) is that entry, more none
  if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return Number(v.join(','));
  return NaN;
}

/** pageSize / limit: beyond the maximum (or no number at all) the maximum, below 1 one; else a whole number. */
function limitOf(rest: RestConfig, raw: unknown, key: string): number {
  const n = numberOf(raw);
  if (rest.maxLimit !== null && (Number.isNaN(n) || n > rest.maxLimit)) return rest.maxLimit;
  if (n < 1) return 1;
  if (!Number.isInteger(n)) throw new ValidationError(`convertLimitQueryParams expected a positive integer got ${n}`);
  if (!Number.isSafeInteger(n)) throw tooLarge(raw, key);
  return n;
}

/** An offset (given, or computed from the page): below 0 is 0; else a whole number. */
function startOf(n: number, raw: unknown, key: string): number {
  if (n < 0) return 0;
  if (!Number.isInteger(n)) throw new ValidationError(`convertStartQueryParams expected a positive integer got ${n}`);
  if (!Number.isSafeInteger(n)) throw tooLarge(raw, key);
  return n;
}

// beyond this an offset loses precision in JavaScript and overflows the databases' 64-bit offsets
function tooLarge(v: unknown, key: string): ValidationError {
  return new ValidationError(`Invalid value ${JSON.stringify(v)} for pagination[${key}]: expected an integer between ${-Number.MAX_SAFE_INTEGER} and ${Number.MAX_SAFE_INTEGER}`, {
    source: 'query',
    param: 'pagination',
  });
}

function pageBeyondRows(v: unknown, pageSize: number): ValidationError {
  return new ValidationError(`Invalid value ${JSON.stringify(v)} for pagination[page]: with pageSize ${pageSize}, its first row would be past row ${Number.MAX_SAFE_INTEGER}`, {
    source: 'query',
    param: 'pagination',
  });
}

function withCount(v: unknown, dflt: boolean): boolean {
  if (v === undefined) return dflt;
  if (v === true || v === 'true' || v === 't' || v === '1') return true;
  if (v === false || v === 'false' || v === 'f' || v === '0') return false;
  throw new ValidationError('Invalid withCount parameter. Expected "t","1","true","false","0","f"');
}

export function parsePagination(rest: RestConfig, query: Record<string, unknown>): Pagination {
  if (query['page'] !== undefined || query['pageSize'] !== undefined) {
    throw new PaginationError('Invalid pagination attributes. The page parameters are incorrect and must be in the pagination object');
  }
  const p = isObj(query['pagination']) ? query['pagination'] : {};
  // other unknown keys are ignored as Strapi does; these can only be an attempt at the prototype
  for (const k of Object.keys(p)) if (isPoison(k)) throw ValidationError.invalidKey(k, null, 'query', 'pagination');
  const count = withCount(p['withCount'], rest.withCount);
  // a key without a value (`pagination[pageSize]`) chooses the mode, and is the default, as Strapi 5.54 reads it —
  // but a limit beside a start is read as Number(null), 0 (so 1)
  const pageMode = p['page'] !== undefined || p['pageSize'] !== undefined;
  const offsetMode = p['start'] !== undefined || p['limit'] !== undefined;
  if (pageMode && offsetMode) throw new PaginationError('Cannot use both page & offset pagination in the same query');
  const absent = (v: unknown): boolean => v === undefined || v === null;
  if (offsetMode) {
    const start = absent(p['start']) ? 0 : startOf(numberOf(p['start']), p['start'], 'start');
    const raw = p['limit'] === undefined || (p['limit'] === null && absent(p['start'])) ? rest.defaultLimit : (p['limit'] ?? 0);
    // -1 asks for everything: as many as the configured maximum allows
    const limit = numberOf(raw) === -1 ? (rest.maxLimit ?? Number.MAX_SAFE_INTEGER) : limitOf(rest, raw, 'limit');
    return { mode: 'offset', start, limit, withCount: count };
  }
  const pageSize = limitOf(rest, absent(p['pageSize']) ? rest.defaultLimit : p['pageSize'], 'pageSize');
  const n = absent(p['page']) ? 1 : numberOf(p['page']);
  // as in Strapi, a page below 1 is the first, and a fractional page is refused by the offset it gives
  const offset = ((n < 1 ? 1 : n) - 1) * pageSize;
  // a page within range whose first row is not: say so, rather than that the page is out of range
  if (Number.isSafeInteger(n) && Number.isInteger(offset) && !Number.isSafeInteger(offset)) throw pageBeyondRows(p['page'], pageSize);
  const start = startOf(offset, p['page'], 'page');
  return { mode: 'page', start, limit: pageSize, withCount: count };
}
