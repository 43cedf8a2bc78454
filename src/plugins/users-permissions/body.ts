// The auth routes' request bodies, checked the way Strapi's yup schemas check them (strict: no
// casting), with Strapi's messages: `<field> is a required field`, `<field> must be a valid email`,
// ``<field> must be a `string` type, but the final value was: `…`.``, "n errors occurred".
import { ValidationError, type FieldError } from '../../errors.js';
import { fieldError, notTypeMessage } from '../../documents/input/messages.js';
import { PASSWORD_MAX_BYTES, tooLong } from './passwords.js';

export type Body = Record<string, unknown>;

// yup's email test, loosened only as far as yup's own
const EMAIL = /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

export function isEmail(v: string): boolean {
  return v.length <= 254 && EMAIL.test(v);
}

/** The JSON body as an object; anything else reads as an empty body, as Strapi's parser leaves it. */
export function bodyOf(raw: unknown): Body {
  return typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? (raw as Body) : {};
}

export class BodyCheck {
  private readonly errors: FieldError[] = [];
  constructor(private readonly body: Body) {}

  /** a required string (empty strings count as missing, as yup's required does) */
  string(field: string, opts: { email?: boolean; password?: boolean } = {}): string | undefined {
    const v = Object.hasOwn(this.body, field) ? this.body[field] : undefined;
    if (v === undefined || v === null || v === '') {
      this.errors.push(fieldError([field], `${field} is a required field`, v === undefined ? undefined : v));
      return undefined;
    }
    if (typeof v !== 'string') {
      this.errors.push(fieldError([field], notTypeMessage([field], 'string', v), v));
      return undefined;
    }
    if (opts.email && !isEmail(v)) {
      this.errors.push(fieldError([field], `${field} must be a valid email`, v));
      return undefined;
    }
    if (opts.password && tooLong(v)) {
      this.errors.push(fieldError([field], `Password must be less than ${PASSWORD_MAX_BYTES + 1} bytes`, v));
      return undefined;
    }
    return v;
  }

  /** `.noUnknown()`: keys other than these are one error at the root */
  only(fields: readonly string[]): this {
    const extra = Object.keys(this.body).filter((k) => !fields.includes(k));
    if (extra.length) this.errors.push(fieldError([], `this field has unspecified keys: ${extra.join(', ')}`, this.body));
    return this;
  }

  /** `passwordConfirmation` must equal `password` */
  same(password: string | undefined, confirmation: string | undefined): void {
    if (password !== undefined && confirmation !== undefined && password !== confirmation) {
      this.errors.push(fieldError(['passwordConfirmation'], 'Passwords do not match', confirmation));
    }
  }

  /** throws the collected errors, if any */
  done(): void {
    if (this.errors.length) throw ValidationError.of(this.errors);
  }
}
