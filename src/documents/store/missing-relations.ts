// Strapi's refusal of relation or media row ids that name no row. Thrown where the write resolves
// them, deep in the store; the route that has the request's data adds the `value` Strapi reports
// with it (input/strapi-echo.ts).
import { ValidationError, type FieldError } from '../../errors.js';

export class MissingRelationsError extends ValidationError {
  constructor(count: number, targetUid: string) {
    const message = `${count} relation(s) of type ${targetUid} associated with this entity do not exist`;
    super(message, { errors: [{ path: [], message, name: 'ValidationError' }] });
  }

  /** the same refusal, its error item carrying `value` */
  withValue(value: unknown): ValidationError {
    return ValidationError.of([{ path: [], message: this.message, name: 'ValidationError', value }]);
  }

  /**
   * The refusal reported after the field errors of the same pass, as Strapi's yup pass lists them
   * ("2 errors occurred"). Its `value` holds each refused field as the field error shows it (yup's
   * cast: `views: "abc"` is null there).
   */
  besides(fields: readonly FieldError[], value: Record<string, unknown>): ValidationError {
    const shown = { ...value };
    for (const f of fields) if (f.path.length === 1 && Object.hasOwn(f, 'value') && Object.hasOwn(shown, f.path[0]!)) shown[f.path[0]!] = f.value;
    return ValidationError.of([...fields, { path: [], message: this.message, name: 'ValidationError', value: shown }]);
  }
}

/** Whether a yup-style refusal holds an error about the whole body (path []). */
export function hasRootError(e: ValidationError): boolean {
  const errors = e.details?.['errors'];
  return Array.isArray(errors) && (errors as FieldError[]).some((f) => f.path.length === 0);
}

/** The field errors of a yup-style refusal, or undefined when it has none or has a root-level one. */
export function fieldErrorsOf(e: ValidationError): FieldError[] | undefined {
  const errors = e.details?.['errors'];
  if (!Array.isArray(errors) || errors.length === 0) return undefined;
  const fields = errors as FieldError[];
  return fields.every((f) => f.path.length > 0) ? fields : undefined;
}
