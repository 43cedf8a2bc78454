// On PostgreSQL a LIKE pattern is written into the statement's text rather than bound. How many rows a
// pattern matches decides the plan (a hash join for `%category%`, index probes for `%category 7%`), so
// a bound pattern is sent unnamed and parsed, analysed and planned on every run
// (postgres-statement-names.ts); written in, each pattern's text is a prepared statement of its own,
// planned for its value once per connection. pgbench on the relation filter's statement, unnamed and
// bound against prepared with the pattern written in: one category 1.03 → 0.40 ms, every category
// 2.5 → 1.7 ms. A connection holding too many texts is replaced (postgres-pipeline.ts), so patterns
// without end cost a reconnection every few hundred.
import { sql, type RawBuilder } from 'kysely';

// A single quote is the only character a standard-conforming literal interprets; a backslash too where
// standard_conforming_strings is off. Control characters are kept out of statement texts and logs; a
// long pattern would be held in every connection's prepared statements.
// eslint-disable-next-line no-control-regex -- control characters are what the pattern must not hold
const WRITABLE = /^[^'\\\u0000-\u001f\u007f]{0,200}$/u;

/** `pattern` as a literal in the statement; bound (and the statement sent unnamed) if it holds anything else */
export function patternLiteral(pattern: string): RawBuilder<string> {
  return WRITABLE.test(pattern) ? sql.lit(pattern) : sql.val(pattern);
}
