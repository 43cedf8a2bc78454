// A LIKE pattern (escape `!`) matched whatever the case of either side, both lower-cased by the
// database as the column's own rules say: JavaScript's lower case differs from PostgreSQL's and MySQL's
// for some letters (`İ`, a final `Σ`), and a row holding exactly the text searched must still match.
import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';

type Lower = (expr: Expression<unknown>) => RawBuilder<string>;

/** `lower(expr) [not] like lower(pattern)`: for a dialect without ILIKE, with its Unicode-aware lower() */
export function lowerLike(lower: Lower): (expr: Expression<unknown>, pattern: string, negate: boolean) => RawBuilder<SqlBool> {
  return (expr, pattern, negate) => sql<SqlBool>`${lower(expr)} ${negate ? sql`not like` : sql`like`} ${lower(sql.val(pattern))} escape '!'`;
}

/**
 * PostgreSQL's ILIKE, which lower-cases both sides as lower() does; unlike `lower(col) like …` it lets
 * the planner estimate the matches from the column's statistics (`lower(name)` has none, so a pattern
 * matching every category was planned as if it matched one).
 */
export function ilike(expr: Expression<unknown>, pattern: Expression<string>, negate: boolean): RawBuilder<SqlBool> {
  return sql<SqlBool>`${expr} ${negate ? sql`not ilike` : sql`ilike`} ${pattern} escape '!'`;
}
