// How a condition on related rows treats a document that has none. Strapi reads such filters
// through a LEFT JOIN, so a document without links is tested once against a row of NULLs:
// `filters[tags][id][$null]=true` keeps the articles without tags. Folio tests related rows with
// EXISTS, which never sees that NULL row, so the compiler asks this module whether the condition
// holds on it and, when it does, also accepts documents with no link at all.
import type { Where } from './ast.js';

/** SQL's three-valued answer: a comparison with NULL is neither true nor false. */
export type Truth = 'true' | 'false' | 'unknown';

function not(t: Truth): Truth {
  return t === 'true' ? 'false' : t === 'false' ? 'true' : 'unknown';
}

/**
 * The value of `w` on a row whose every column is NULL, as the SQL compiled from `w` would
 * compute it (where.ts): only IS NULL tests (and what a list of none compiles to) are decided.
 */
export function onMissingRow(w: Where): Truth {
  switch (w.kind) {
    case 'and': {
      const ts = w.items.map(onMissingRow);
      if (ts.includes('false')) return 'false';
      return ts.every((t) => t === 'true') ? 'true' : 'unknown';
    }
    case 'or': {
      // an empty OR compiles to a true condition (where.ts)
      if (w.items.length === 0) return 'true';
      const ts = w.items.map(onMissingRow);
      if (ts.includes('true')) return 'true';
      return ts.every((t) => t === 'false') ? 'false' : 'unknown';
    }
    case 'not':
      return not(onMissingRow(w.item));
    case 'relation':
    case 'component':
    case 'media':
    case 'localizations':
      // compiled as EXISTS, which is never unknown: on a missing row it holds exactly when its own
      // condition holds on the next missing row
      return onMissingRow(w.where) === 'true' ? 'true' : 'false';
    case 'constant':
      return w.value ? 'true' : 'false';
    case 'compare':
      switch (w.op) {
        case '$null':
          return w.value === true ? 'true' : 'false';
        case '$notNull':
          return w.value === true ? 'false' : 'true';
        case '$eq':
        case '$eqi':
          return w.value === null ? 'true' : 'unknown';
        case '$ne':
        case '$nei':
          return w.value === null ? 'false' : 'unknown';
        case '$in':
          return Array.isArray(w.value) && w.value.length === 0 ? 'false' : 'unknown';
        case '$notIn':
          return Array.isArray(w.value) && w.value.length === 0 ? 'true' : 'unknown';
        default:
          return 'unknown';
      }
  }
}
