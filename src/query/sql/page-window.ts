// A page's LIMIT goes into the statement's text and its OFFSET is left out on a first page.
//
// PostgreSQL runs a named statement on a plan for all values (a generic plan) only while that plan's
// estimated cost is no higher than the plans made for each run's values; with the limit and offset as
// parameters the generic plan must assume some unknown number of rows skipped, and costs more (a
// findOne by documentId: 16.3 against 6.3), so every run was planned again. Page sizes are few, so
// the limit in the text adds few statements; offsets are many, so a later page keeps its offset a value.

import { sql, type SelectQueryBuilder } from 'kysely';

/** a page's size and where it starts (FindQuery's pagination) */
interface Window {
  readonly limit: number;
  readonly start: number;
}

/** `b` limited to the page; `offset`: a statement template's placeholder for the page's start */
export function windowed<DB, TB extends keyof DB, O>(b: SelectQueryBuilder<DB, TB, O>, page: Window, offset: unknown = page.start): SelectQueryBuilder<DB, TB, O> {
  const limited = b.limit(sql.lit(page.limit));
  return page.start === 0 ? limited : limited.offset(offset as number);
}

/** what a page's window adds to the key of a statement template that reads it */
export function windowKey(page: Window): string {
  return `${page.limit}\u0000${page.start === 0 ? 'first' : 'later'}`;
}
