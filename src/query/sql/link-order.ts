// Links and component entries are read unordered and put in order here. An ORDER BY on a populate
// statement made SQLite sort the rows in a temporary B-tree (its IN list walks the index in parent
// order, not in `ord` order): 10–45 % of each such statement's time on the bench's deep populate,
// where sorting a few dozen rows here costs microseconds. The row budget's LIMIT still bounds what a
// statement returns; which rows it keeps doesn't matter, as a read that reaches it is refused.

/** Sorts `rows` in place by their `__ord`, then their `__id` (the order links and entries were set in). */
export function inLinkOrder<R extends Record<string, unknown>>(rows: R[]): R[] {
  if (rows.length > 1) rows.sort(byOrdThenId);
  return rows;
}

function byOrdThenId(a: Record<string, unknown>, b: Record<string, unknown>): number {
  return Number(a['__ord']) - Number(b['__ord']) || Number(a['__id']) - Number(b['__id']);
}
