// Values from a closed set that the schema or the configuration defines (a locale code, an
// attribute's name, a type's uid, a status) are written into a read's SQL text instead of being bound.
// PostgreSQL plans a prepared statement once for all values only while that generic plan doesn't look
// costlier than one made for the values; bound, `locale = $1` or `field = $2` is estimated for any one
// of the column's distinct values rather than for the actual one, so a list page (`locale = 'en'`,
// 83 % of the rows) and a findOne's `seo` component (a field of two) looked costlier generic and were
// planned again on every run, with the same plan. Written in, the estimate is the value's own and the
// plan is made once per connection.
import { sql, type RawBuilder } from 'kysely';

// nothing a string literal would need to escape on any of the three databases (quotes, backslashes)
const PLAIN = /^[A-Za-z0-9_.:@-]*$/;

/** `value` as a literal in the statement's text; bound as a parameter if it holds anything else */
export function keyLiteral(value: string): RawBuilder<string> {
  return PLAIN.test(value) ? sql.lit(value) : sql.val(value);
}
