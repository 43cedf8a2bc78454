// `meta.pagination` as clients see it: the effective page or offset values, with counts unless
// withCount is off (behaviour.md §5.3).
import type { Pagination } from '../query/ast.js';

export function paginationMeta(p: Pick<Pagination, 'mode' | 'start' | 'limit'>, total: number | null): Record<string, number> {
  const out: Record<string, number> = p.mode === 'page' ? { page: Math.floor(p.start / p.limit) + 1, pageSize: p.limit } : { start: p.start, limit: p.limit };
  if (total !== null) {
    if (p.mode === 'page') out['pageCount'] = Math.ceil(total / p.limit);
    out['total'] = total;
  }
  return out;
}
