// Without draft & publish Strapi checks a write's values in one pass, uniqueness among them: a body
// refused for its values also names each unique value another document holds (a repeated code beside
// an unknown enumeration value is "2 errors occurred"). With draft & publish the draft's checks come
// first and uniqueness only at publishing, which the writer checks. A value no column can hold (a date
// `yesterday`) is met after that pass, in Strapi's database layer: a unique clash is reported instead.
import { ValidationError, type FieldError } from '../errors.js';
import type { Database } from '../database/dialect.js';
import type { Model } from '../schema/types.js';
import { fieldErrorsOf } from './store/missing-relations.js';
import { inSchemaOrder } from './input/error-order.js';
import { plainValues } from './input/plain-values.js';
import type { WriteData } from './input/types.js';
import { notUnique, takenElsewhere, uniqueValues, type UniqueScope } from './unique-values.js';

export interface RefusedWrite {
  readonly model: Model;
  readonly database: Database;
  /** the body's `data` as sent, and as read for the writer */
  readonly raw: unknown;
  readonly data: WriteData;
  readonly scope: UniqueScope;
}

/** `refused`, with the uniqueness errors of the values that passed their own checks, in schema order. */
export async function withUniquenessErrors(refused: ValidationError, w: RefusedWrite): Promise<ValidationError> {
  const { type } = w.scope;
  if (type.draftAndPublish) return refused;
  // no errors listed: refused for a value its column can't hold (details {}), the answer when nothing clashes
  const listed = refused.details?.['errors'];
  const errors = Array.isArray(listed) && listed.length > 0 ? fieldErrorsOf(refused) : [];
  if (errors === undefined) return refused;
  const failed = new Set(errors.map((e) => e.path[0]));
  const more: FieldError[] = [];
  // the values sent that passed their own checks (plainValues holds a scalar only when the body sent it)
  for (const [a, v] of uniqueValues(type, plainValues(w.model, type, w.data))) {
    if (!failed.has(a.name) && (await takenElsewhere(w.database.db, w.database.dialect, w.scope, a, v))) more.push(notUnique(a, v));
  }
  return more.length === 0 ? refused : ValidationError.of(inSchemaOrder(w.model, type, w.raw, [...errors, ...more]));
}
