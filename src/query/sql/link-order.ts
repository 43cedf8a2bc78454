// Links and component entries are read unordered and put in order here. An ORDER BY on a populate
// statement made SQLite sort the rows in a temporary B-tree (its IN list walks the index in parent
// order, not in `ord` order): 10–45 % of each such statement's time on the bench's deep populate.
// Readers group the rows by parent, so each parent's rows in order is all that counts: ordered by
// parent first, the rows SQLite returns from its indexes are usually in order already, and checking
// that costs one pass. The row budget's LIMIT still bounds what a statement returns; which rows it
// keeps doesn't matter, as a read that reaches it is refused.

/** Puts `rows` in order in place: by parent (`__src`), then the order they were set in (`__ord`, then `__id`). */
export function inLinkOrder<R extends Record<string, unknown>>(rows: R[]): R[] {
  for (let i = 1; i < rows.length; i++)
    if (inOrder(rows[i - 1]!, rows[i]!) > 0) {
      rows.sort(inOrder);
      break;
    }
  return rows;
}

function inOrder(a: Record<string, unknown>, b: Record<string, unknown>): number {
  return Number(a['__src']) - Number(b['__src']) || Number(a['__ord']) - Number(b['__ord']) || Number(a['__id']) - Number(b['__id']);
}
