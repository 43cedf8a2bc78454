// One statement for the link reads of several attributes: each attribute's read is a part of a
// UNION ALL that names itself in `__part`, and its rows come back to it by that number.
import { sql, type SelectQueryBuilder } from 'kysely';
import type { Row } from './find.js';

type Part = SelectQueryBuilder<never, never, Row>;

/**
 * `parts` as one UNION ALL, each part's links in the order they were set (`__ord`, then `__id`), cut
 * at `limit` rows (the populate budget's, when the read has one).
 */
export function unionInLinkOrder(parts: readonly Part[], limit: number | undefined): Part {
  let q = parts[0]!;
  for (let i = 1; i < parts.length; i++) q = q.unionAll(parts[i]!);
  const ordered = q
    .orderBy('__part' as never)
    .orderBy('__ord' as never)
    .orderBy('__id' as never);
  return limit === undefined ? ordered : ordered.limit(sql.lit(limit));
}

/** the rows of such a statement, back under the part (of `count`) that asked for them */
export function rowsByPart(rows: readonly Row[], count: number): Row[][] {
  const byPart = Array.from({ length: count }, (): Row[] => []);
  for (const r of rows) byPart[Number(r['__part'])]!.push(r);
  return byPart;
}
