// Strapi's refusal of relation or media row ids that name no row. Thrown where the write resolves
// them, deep in the store; the route that has the request's data adds the `value` Strapi reports
// with it (input/strapi-echo.ts).
import { ValidationError } from '../../errors.js';

export class MissingRelationsError extends ValidationError {
  constructor(count: number, targetUid: string) {
    const message = `${count} relation(s) of type ${targetUid} associated with this entity do not exist`;
    super(message, { errors: [{ path: [], message, name: 'ValidationError' }] });
  }

  /** the same refusal, its error item carrying `value` */
  withValue(value: unknown): ValidationError {
    return ValidationError.of([{ path: [], message: this.message, name: 'ValidationError', value }]);
  }
}
