// Pagination (behaviour.md §5.3): page or offset mode, clamped to the configured limits, meta
// always showing the effective values. Non-integers are a 400 (Strapi is inconsistent there).
import { PaginationError, ValidationError } from '../../errors.js';
import type { Pagination } from '../ast.js';
import type { RestConfig } from '../../config/types.js';
import { isObj, isPoison } from './context.js';

function int(v: unknown, key: string): number {
  const s = typeof v === 'number' ? String(v) : typeof v === 'string' ? v.trim() : '';
  if (!/^-?\d+$/.test(s)) throw new ValidationError(`Invalid value ${JSON.stringify(v)} for pagination[${key}]: expected an integer`, { source: 'query', param: 'pagination' });
  const n = Number(s);
  if (!Number.isSafeInteger(n)) throw tooLarge(v, key);
  return n;
}

// beyond this an offset loses precision in JavaScript and overflows the databases' 64-bit offsets
function tooLarge(v: unknown, key: string): ValidationError {
  return new ValidationError(`Invalid value ${JSON.stringify(v)} for pagination[${key}]: expected an integer between ${-Number.MAX_SAFE_INTEGER} and ${Number.MAX_SAFE_INTEGER}`, {
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
  const clamp = (n: number): number => {
    const atLeastOne = Math.max(1, n);
    return rest.maxLimit === null ? atLeastOne : Math.min(atLeastOne, rest.maxLimit);
  };
  const count = withCount(p['withCount'], rest.withCount);
  const pageMode = p['page'] !== undefined || p['pageSize'] !== undefined;
  const offsetMode = p['start'] !== undefined || p['limit'] !== undefined;
  if (pageMode && offsetMode) throw new PaginationError('Cannot use both page & offset pagination in the same query');
  if (offsetMode) {
    const start = p['start'] === undefined ? 0 : Math.max(0, int(p['start'], 'start'));
    const raw = p['limit'] === undefined ? rest.defaultLimit : int(p['limit'], 'limit');
    // -1 asks for everything: as many as the configured maximum allows
    const limit = raw === -1 ? (rest.maxLimit ?? Number.MAX_SAFE_INTEGER) : clamp(raw);
    return { mode: 'offset', start, limit, withCount: count };
  }
  const page = p['page'] === undefined ? 1 : Math.max(1, int(p['page'], 'page'));
  const pageSize = p['pageSize'] === undefined ? clamp(rest.defaultLimit) : clamp(int(p['pageSize'], 'pageSize'));
  const start = (page - 1) * pageSize;
  if (!Number.isSafeInteger(start)) throw tooLarge(p['page'], 'page');
  return { mode: 'page', start, limit: pageSize, withCount: count };
}
