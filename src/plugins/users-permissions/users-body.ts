// The first check of a POST or PUT /api/users body, as Strapi 5.54's controller checks it with yup
// before anything is written: email, username, password and role, in that order, every error at
// once. The model's checks come after (users.validatePlain).
import type { FieldError } from '../../errors.js';
import { fieldError, notTypeMessage } from '../../documents/input/messages.js';
import { bodyOf, isEmail, isSecret, notObjectError, withoutSecrets, type Body } from './body.js';
import { readRoleRef, type RoleRead } from './role-ref.js';

interface StringRules {
  readonly required: boolean;
  readonly email?: boolean;
  readonly min1?: boolean;
}

/** yup's string(): a type test first (null included), then min(1), email and required on a string */
function checkString(errors: FieldError[], body: Body, field: string, rules: StringRules): void {
  if (!Object.hasOwn(body, field) || body[field] === undefined) {
    if (rules.required) errors.push(fieldError([field], `${field} is a required field`));
    return;
  }
  const v = body[field];
  const shown = isSecret(field) ? undefined : withoutSecrets(v);
  if (typeof v !== 'string') {
    errors.push(fieldError([field], isSecret(field) ? `${field} must be a \`string\` type` : notTypeMessage([field], 'string', shown), shown));
    return;
  }
  if (rules.min1 && v === '') errors.push(fieldError([field], `${field} must be at least 1 characters`, shown));
  // yup's email test passes an empty string
  if (rules.email && v !== '' && !isEmail(v)) errors.push(fieldError([field], `${field} must be a valid email`, shown));
  if (rules.required && v === '') errors.push(fieldError([field], `${field} is a required field`, shown));
}

/** a create's body: the role as read (undefined when none is given: the default role) */
export function checkCreateBody(raw: unknown): { errors: FieldError[]; role: RoleRead | undefined } {
  // Strapi 5.54 answers an array body so on POST and PUT (read as an empty object, a PUT changed nothing)
  const notObject = notObjectError(raw);
  if (notObject) return { errors: [notObject], role: undefined };
  const body = bodyOf(raw);
  const errors: FieldError[] = [];
  checkString(errors, body, 'email', { required: true, email: true });
  checkString(errors, body, 'username', { required: true, min1: true });
  checkString(errors, body, 'password', { required: true, min1: true });
  // Strapi gives the default role to a falsy one (0 or ''), as to none
  const given = Object.hasOwn(body, 'role') ? body['role'] : undefined;
  const role = given !== undefined && given !== 0 && given !== '' ? readRoleRef(given, true) : undefined;
  if (role?.kind === 'error') errors.push(role.error);
  return { errors, role };
}

/** an update's body: only what it holds is checked; a null or empty password passes here (password.notNull next) */
export function checkUpdateBody(raw: unknown): { errors: FieldError[]; role: RoleRead | undefined } {
  const notObject = notObjectError(raw);
  if (notObject) return { errors: [notObject], role: undefined };
  const body = bodyOf(raw);
  const errors: FieldError[] = [];
  checkString(errors, body, 'email', { required: false, email: true, min1: true });
  checkString(errors, body, 'username', { required: false, min1: true });
  const password = Object.hasOwn(body, 'password') ? body['password'] : undefined;
  if (password !== undefined && password !== null && password !== '' && typeof password !== 'string') {
    errors.push(fieldError(['password'], 'Password must be at least 1 character'));
  }
  const role = Object.hasOwn(body, 'role') && body['role'] !== undefined ? readRoleRef(body['role'], false) : undefined;
  if (role?.kind === 'error' && !role.late) errors.push(role.error);
  return { errors, role };
}

/**
 * The value Strapi 5.54 shows with an update's late role error (a role that doesn't exist, `Invalid
 * relations`): the data its document service was given, that is the body in its order with the email
 * lowercased and the role in its relation form, then the `publishedAt` it adds. Secrets are left out.
 */
export function updateDataEcho(raw: unknown, role: unknown): Body {
  const echoed = Object.entries(withoutSecrets(bodyOf(raw)) as Body).map(([k, v]) => [k, k === 'role' ? role : k === 'email' && typeof v === 'string' ? v.toLowerCase() : v]);
  return Object.fromEntries([...echoed, ['publishedAt', new Date().toISOString()]]) as Body;
}
