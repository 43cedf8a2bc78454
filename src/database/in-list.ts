// `expr in (…)`: how SQLite and MySQL ask for one of a list of values (Dialect.oneOf).
import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';

export function inList(expr: Expression<unknown>, values: readonly number[] | readonly string[]): RawBuilder<SqlBool> {
  return sql<SqlBool>`${expr} in (${sql.join(values)})`;
}
