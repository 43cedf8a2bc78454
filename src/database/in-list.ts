// `expr in (…)`: how SQLite and MySQL ask for one of a list of values (Dialect.oneOf).
import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';

export function inList(expr: Expression<unknown>, values: readonly number[] | readonly string[]): RawBuilder<SqlBool> {
  return sql<SqlBool>`${expr} in (${sql.join(values)})`;
}

/**
 * Ids to name in `in (…)` lists, at most this many per statement: SQLite takes 32,766 parameters in
 * one statement and PostgreSQL and MySQL 65,535, and one document's lists across its locales hold more.
 */
export const IDS_PER_STATEMENT = 10_000;

export function inChunks<T>(items: readonly T[], size = IDS_PER_STATEMENT): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
