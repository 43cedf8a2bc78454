// Finer than a table's counter (table-versions.ts): each table that reads address by one column
// (a document's rows by document_id, its links by source_id, its components by entity_id or id) has
// its rows spread over BUCKETS buckets by that column's value, and the database's triggers record,
// in folio_table_buckets, the table version that last wrote each bucket. A body whose statements read
// a table only at some keys then outlives writes to that table's other buckets: another article's
// update leaves this article's body in place. Two keys sharing a bucket only cost a re-read.

export const BUCKETS_TABLE = 'folio_table_buckets';
export const BUCKETS = 4096;

/** The column a table's rows are bucketed by, and whether its values are integers (ids) or text (document ids). */
export interface Partition {
  readonly column: string;
  readonly kind: 'int' | 'text';
}

/** A table and the column its rows are bucketed by (null: the table has only its counter). */
export interface VersionedTable {
  readonly name: string;
  readonly partition: Partition | null;
}

// Text keys hash their last three characters: document ids end in random ones. The SQL of each dialect
// computes the same from code points; keys with other than ASCII characters are not bucketed on this
// side (a read at such a key depends on the whole table), so the two sides never disagree on one.
// (Printable ASCII: control characters are left to the whole table too, which costs nothing real.)
const ASCII = /^[ -~]*$/;

/** The bucket of a key, or null when it can't be said here (a read at it then depends on the whole table). */
export function bucketOf(kind: Partition['kind'], value: unknown): number | null {
  if (kind === 'int') {
    const n = typeof value === 'number' ? value : typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : NaN;
    return Number.isSafeInteger(n) ? Math.abs(n) % BUCKETS : null;
  }
  if (typeof value !== 'string' || !ASCII.test(value)) return null;
  const code = (k: number): number => (value.length >= k ? value.charCodeAt(value.length - k) : 0);
  return (code(1) * 961 + code(2) * 31 + code(3)) % BUCKETS;
}

/**
 * The SQL computing a key's bucket from `expr` (a column of OLD or NEW), as bucketOf does: `codeAt(expr, k)`
 * is the code point of the k-th character from the end, 0 past the start.
 */
export function bucketSql(kind: Partition['kind'], expr: string, codeAt: (expr: string, k: number) => string): string {
  if (kind === 'int') return `abs(${expr}) % ${BUCKETS}`;
  return `(${codeAt(expr, 1)} * 961 + ${codeAt(expr, 2)} * 31 + ${codeAt(expr, 3)}) % ${BUCKETS}`;
}

/** A bucket of a table and the table version that last wrote it. */
export interface BucketChange {
  readonly table: string;
  readonly bucket: number;
  readonly version: number;
}
