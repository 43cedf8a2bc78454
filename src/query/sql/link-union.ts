// One statement for the link reads of several attributes: each attribute's read is a part of a
// UNION ALL that names itself in `__part`, and its rows come back to it by that number.
import { sql, type SelectQueryBuilder } from 'kysely';
import type { Row } from './find.js';
import { inLinkOrder } from './link-order.js';

type Part = SelectQueryBuilder<never, never, Row>;

/**
 * `parts` as one UNION ALL, cut at `limit` rows (the populate budget's, when the read has one). The rows
 * come in no particular order: `rowsByPart` puts each part's in link order.
 */
export function unionOfLinks(parts: readonly Part[], limit: number | undefined): Part {
  let q = parts[0]!;
  for (let i = 1; i < parts.length; i++) q = q.unionAll(parts[i]!);
  return limit === undefined ? q : q.limit(sql.lit(limit));
}

/** the rows of such a statement, back under the part (of `count`) that asked for them, each part's in link order */
export function rowsByPart(rows: readonly Row[], count: number): Row[][] {
  const byPart = Array.from({ length: count }, (): Row[] => []);
  for (const r of rows) byPart[Number(r['__part'])]!.push(r);
  for (const part of byPart) inLinkOrder(part);
  return byPart;
}
