// Strings are ordered by code point on every database (README, "Differences from Strapi"): sorts,
// range comparisons and the smallest or largest of a to-many sort's values alike. A PostgreSQL
// database created with another collation (ICU, en_US) would otherwise order `$gt` one way and
// `sort` another, and a client paging by the last value seen would skip and repeat rows.
import { sql, type RawBuilder } from 'kysely';
import type { FieldRef } from '../ast.js';
import type { Dialect } from '../../database/dialect.js';

/** `value` as compared by code point when the field holds text (dialect.binarySort), else as it is */
export function inCodePointOrder(d: Dialect, field: Pick<FieldRef, 'valueType'>, value: RawBuilder<unknown>): RawBuilder<unknown> {
  return field.valueType === 'string' || field.valueType === 'json' ? sql`${value}${sql.raw(d.binarySort)}` : value;
}
