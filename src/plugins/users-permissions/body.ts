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

/** fields whose values never go back to the client, not even inside an error (Strapi echoes them) */
export const isSecret = (field: string): boolean => /password/i.test(field);

/** the body as an error may show it: secrets left out */
function shown(body: Body): Body {
  const out: Body = {};
  for (const [k, v] of Object.entries(body)) if (!isSecret(k)) out[k] = v;
  return out;
}

export class BodyCheck {
  private readonly errors: FieldError[] = [];
  constructor(private readonly body: Body) {}

  private fail(field: string, message: string, value: unknown): void {
    this.errors.push(fieldError([field], message, isSecret(field) ? undefined : value));
  }

  /** a required string (empty strings count as missing, as yup's required does) */
  string(field: string, opts: { email?: boolean; password?: boolean } = {}): string | undefined {
    const v = Object.hasOwn(this.body, field) ? this.body[field] : undefined;
    if (v === undefined || v === null || v === '') {
      this.fail(field, `${field} is a required field`, v === undefined ? undefined : v);
      return undefined;
    }
    if (typeof v !== 'string') {
      this.fail(field, isSecret(field) ? `${field} must be a \`string\` type` : notTypeMessage([field], 'string', v), v);
      return undefined;
    }
    if (opts.email && !isEmail(v)) {
      this.fail(field, `${field} must be a valid email`, v);
      return undefined;
    }
    if (opts.password && tooLong(v)) {
      this.fail(field, `Password must be less than ${PASSWORD_MAX_BYTES + 1} bytes`, v);
      return undefined;
    }
    return v;
  }

  /** `.noUnknown()`: keys other than these are one error at the root */
  only(fields: readonly string[]): this {
    const extra = Object.keys(this.body).filter((k) => !fields.includes(k));
    if (extra.length) this.errors.push(fieldError([], `this field has unspecified keys: ${extra.join(', ')}`, shown(this.body)));
    return this;
  }

  /** `passwordConfirmation` must equal `password` */
  same(password: string | undefined, confirmation: string | undefined): void {
    if (password !== undefined && confirmation !== undefined && password !== confirmation) {
      this.fail('passwordConfirmation', 'Passwords do not match', confirmation);
    }
  }

  /** throws the collected errors, if any */
  done(): void {
    if (this.errors.length) throw ValidationError.of(this.errors);
  }
}
