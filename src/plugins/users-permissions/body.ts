// The auth routes' request bodies, checked the way Strapi's yup schemas check them (strict: no
// casting), with Strapi's messages: `<field> is a required field`, `<field> must be a valid email`,
// ``<field> must be a `string` type, but the final value was: `…`.``, "n errors occurred".
import { ValidationError, type FieldError } from '../../errors.js';
import { fieldError, notTypeMessage } from '../../documents/input/messages.js';
import { isEmailAddress } from '../../documents/input/email-address.js';
import { passwordProblem } from './passwords.js';
import type { PasswordRule } from './config.js';

export type Body = Record<string, unknown>;

/**
 * An address as Strapi's auth and users bodies check it (yup's `string().email()`, the grammar an email
 * attribute is checked with): `"a b"@c.de`, `ü@exämple.de` and `a@c_d.de` pass, `a@b` does not.
 */
export function isEmail(v: string): boolean {
  return isEmailAddress(v);
}

/** The JSON body as an object; anything else reads as an empty body, as Strapi's parser leaves it. */
export function bodyOf(raw: unknown): Body {
  return typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? (raw as Body) : {};
}

/**
 * register copies the body into an object first, so an array's indexes are its keys (`Invalid parameters:
 * 0, 1`), and a text body's are its characters' (one per UTF-16 unit, as an object spread of a string)
 */
export function copiedBodyOf(raw: unknown): Body {
  if (typeof raw === 'string') return Object.fromEntries(Array.from({ length: raw.length }, (_, i) => [String(i), raw[i]]));
  return Array.isArray(raw) ? Object.fromEntries(raw.map((v: unknown, i) => [String(i), v])) : bodyOf(raw);
}

/** fields whose values never go back to the client, not even inside an error (Strapi echoes them) */
export const isSecret = (field: string): boolean => /password/i.test(field);

/** a value as an error may show it, in its message or as its value: secrets left out at any depth */
export function withoutSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSecrets);
  if (typeof value !== 'object' || value === null) return value;
  // defined key by key: a client's `__proto__` key stays a key of the echo (an assignment would set its prototype)
  return Object.fromEntries(Object.entries(value).flatMap(([k, v]) => (isSecret(k) ? [] : [[k, withoutSecrets(v)]])));
}

/** yup's object type test at a body's root: an array or a text body fails it, and then no field is checked */
export function notObjectError(raw: unknown): FieldError | null {
  if (!Array.isArray(raw) && typeof raw !== 'string') return null;
  const shown = withoutSecrets(raw);
  return fieldError([], notTypeMessage([], 'object', shown), shown);
}

/**
 * Checks a body as Strapi's yup object schemas do (strict, abortEarly off): errors in the order the
 * fields are checked, the root's unknown-keys error after them. A body that is an array or text fails
 * the object's type test, and yup then checks none of its fields.
 */
export class BodyCheck {
  /** each checked field's errors, in the order the fields were checked (a Map keeps it) */
  private readonly fieldErrors = new Map<string, FieldError[]>();
  private readonly rootErrors: FieldError[] = [];
  private readonly body: Body;
  /** an array, or a text body: either fails the object's type test */
  private readonly notObject: boolean;

  constructor(raw: unknown) {
    this.body = bodyOf(raw);
    const root = notObjectError(raw);
    this.notObject = root !== null;
    if (root) this.rootErrors.push(root);
  }

  private errorsOf(field: string): FieldError[] {
    let list = this.fieldErrors.get(field);
    if (list === undefined) this.fieldErrors.set(field, (list = []));
    return list;
  }

  private fail(field: string, message: string, value: unknown): void {
    this.errorsOf(field).push(fieldError([field], message, isSecret(field) ? undefined : withoutSecrets(value)));
  }

  private typeError(field: string, v: unknown): void {
    this.fail(field, isSecret(field) ? `${field} must be a \`string\` type` : notTypeMessage([field], 'string', withoutSecrets(v)), v);
  }

  private valueOf(field: string): unknown {
    return Object.hasOwn(this.body, field) ? this.body[field] : undefined;
  }

  /** a required string: null is not a string (yup's type test), '' is missing (its required test) */
  string(field: string, opts: { email?: boolean; password?: boolean } = {}): string | undefined {
    if (this.notObject) return undefined;
    this.errorsOf(field);
    const v = this.valueOf(field);
    if (v !== undefined && typeof v !== 'string') {
      this.typeError(field, v);
      return undefined;
    }
    if (v === undefined || v === '') {
      this.fail(field, `${field} is a required field`, v);
      return undefined;
    }
    if (opts.email && !isEmail(v)) {
      this.fail(field, `${field} must be a valid email`, v);
      return undefined;
    }
    const problem = opts.password ? passwordProblem(v) : null;
    if (problem !== null) {
      this.fail(field, problem, v);
      return undefined;
    }
    return v;
  }

  /**
   * `passwordConfirmation`, a required string one of [the body's `password`]: yup runs the type and
   * one-of tests first, reports both, and checks `required` only when neither failed — so `''` beside
   * another password is a mismatch, not a missing field
   */
  confirmation(field = 'passwordConfirmation', of = 'password'): void {
    if (this.notObject) return;
    this.errorsOf(field);
    const v = this.valueOf(field);
    if (v === undefined) return this.fail(field, `${field} is a required field`, v);
    if (typeof v !== 'string') this.typeError(field, v);
    if (v !== this.valueOf(of)) this.fail(field, 'Passwords do not match', v);
    else if (v === '') this.fail(field, `${field} is a required field`, v);
  }

  /**
   * The project's `validationRules.validatePassword`, a test yup runs beside the field's others on any
   * string: false is `Password validation failed.`, a thrown error its message
   */
  async rule(field: string, rule: PasswordRule | undefined): Promise<void> {
    const v = this.valueOf(field);
    if (rule === undefined || this.notObject || typeof v !== 'string') return;
    let message: string | undefined;
    try {
      if (!(await rule(v))) message = 'Password validation failed.';
    } catch (e) {
      message = (e instanceof Error && e.message) || 'An error occurred.';
    }
    if (message !== undefined) this.fail(field, message, v);
  }

  /** `.noUnknown()`: keys other than these are one error at the root, after the fields' */
  only(fields: readonly string[]): this {
    const extra = Object.keys(this.body).filter((k) => !fields.includes(k));
    if (extra.length && !this.notObject) this.rootErrors.push(fieldError([], `this field has unspecified keys: ${extra.join(', ')}`, withoutSecrets(this.body)));
    return this;
  }

  /** throws the collected errors, if any */
  done(): void {
    const all = [...[...this.fieldErrors.values()].flat(), ...this.rootErrors];
    if (all.length) throw ValidationError.of(all);
  }
}
