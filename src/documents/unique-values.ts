// Uniqueness of an attribute's value among a type's documents, as Strapi holds it: the published
// rows of a draft & publish type, the write's locale of a localized one, other documents only, and
// an empty string never taken.
import type { FieldError } from '../errors.js';
import type { Dialect } from '../database/dialect.js';
import type { ContentType, ScalarAttribute } from '../schema/types.js';
import { isVisible } from '../schema/conditions.js';
import { toColumn } from './store/rows.js';
import type { Tx } from './store/store.js';

export interface UniqueScope {
  readonly type: ContentType;
  /** the document written, whose own rows don't count (a new one's id matches none) */
  readonly documentId: string;
  readonly locale: string | null;
}

/** whether `v` is a value uniqueness applies to */
export function holdsToUniqueness(v: unknown): boolean {
  return v !== null && v !== undefined && v !== '';
}

/** The type's unique attributes that `values` gives a value uniqueness applies to, in schema order. */
export function* uniqueValues(type: ContentType, values: Record<string, unknown>): Generator<[ScalarAttribute, unknown]> {
  for (const a of type.attributes.values()) {
    if (a.kind === 'scalar' && a.unique && holdsToUniqueness(values[a.name]) && isVisible(a, values)) yield [a, values[a.name]];
  }
}

/** Whether another document's row holds `v` in `a`. */
export async function takenElsewhere(db: Tx, dialect: Dialect, scope: UniqueScope, a: ScalarAttribute, v: unknown): Promise<boolean> {
  const { type, documentId, locale } = scope;
  // the value as its column holds it (a datetime is a Date here, and SQLite stores its ISO text)
  let q = db
    .selectFrom(type.table)
    .select('id')
    .where(a.column, '=', toColumn(dialect, a, v))
    .where('document_id', '<>', documentId);
  if (type.draftAndPublish) q = q.where('published_at', 'is not', null);
  if (type.localized && locale !== null) q = q.where('locale', '=', locale);
  return (await q.limit(1).executeTakeFirst()) !== undefined;
}

export function notUnique(a: ScalarAttribute, v: unknown): FieldError {
  return { path: [a.name], message: 'This attribute must be unique', name: 'ValidationError', value: v };
}
