// Rules that apply only when a published row is written (publish, or any write on a type without
// draft & publish): required, minimum sizes, formats (behaviour.md §6.2). Drafts skip them. They
// run on the final merged values of the row, so they can't be checked on the request body alone
// (a conditional field's condition too).
// `unique` needs the database and is the caller's.
import type { FieldError } from '../../errors.js';
import type { Attribute, Component, ContentType, Model, ScalarAttribute } from '../../schema/types.js';
import { isVisible } from '../../schema/conditions.js';
import { fieldError, notTypeMessage, pathText } from './messages.js';
import { isEmailAddress } from './email-address.js';

/**
 * Marks the values of a component updated in place (sent back with its id): absent keys keep their
 * stored values, so a missing required sub-field is not an error there.
 */
export const PARTIAL = '__partial';

export interface PublishOptions {
  /** a create: a required field left out is "must be defined" (non-D&P types) */
  readonly isCreate: boolean;
  readonly draftAndPublish: boolean;
}

type Values = Record<string, unknown>;

const UID_FORMAT = '^[A-Za-z0-9-_.~]*$';

/**
 * What Strapi 5.54 says of a required attribute found null (a D&P version publishes its stored draft,
 * where a field left out is null): yup's type error for text, numbers (which its validators cast to
 * NaN), blocks and lists, and `must be defined.` for the types whose validators read null as no value.
 */
function nullMessage(a: Attribute, path: string[]): string {
  if (a.kind === 'component') return notTypeMessage(path, a.repeatable ? 'array' : 'object', null);
  if (a.kind === 'dynamiczone') return notTypeMessage(path, 'array', null);
  if (a.kind !== 'scalar') return notTypeMessage(path, 'mixed', null);
  switch (a.type) {
    case 'integer':
    case 'float':
    case 'decimal':
      return notTypeMessage(path, 'number', NaN);
    case 'biginteger':
    case 'boolean':
    case 'date':
    case 'time':
    case 'datetime':
    case 'timestamp':
    case 'json':
      return `${pathText(path)} must be defined.`;
    case 'blocks':
      return notTypeMessage(path, 'array', null);
    default:
      return notTypeMessage(path, 'string', null);
  }
}

const isObj = (v: unknown): v is Values => typeof v === 'object' && v !== null && !Array.isArray(v);

function requiredError(a: Attribute, values: Values, path: string[], opts: PublishOptions, nested: boolean): FieldError | undefined {
  const present = Object.hasOwn(values, a.name) && values[a.name] !== undefined;
  const v = present ? values[a.name] : undefined;
  if (present && v !== null) return undefined;
  if (!present && values[PARTIAL] === true) return undefined;
  // Strapi publishes a D&P version by creating it from the stored draft, where a missing field (a
  // component's sub-field too) is null: it is reported as a type error on null, as is a null sent
  if (opts.draftAndPublish || v === null) {
    const message = nullMessage(a, path);
    // an update's required rule is notNull where a create's is notNil: the types whose validators read
    // null as no value say so in its words (seen on booleans, datetimes and big integers, Strapi 5.54)
    const updated = v === null && !opts.draftAndPublish && !opts.isCreate && message.endsWith(' must be defined.');
    return fieldError(path, updated ? `${pathText(path)} cannot be null.` : message, null);
  }
  // an update of a non-D&P type that leaves the field out keeps the stored value
  if (nested || opts.isCreate) return fieldError(path, `${pathText(path)} must be defined.`);
  return undefined;
}

/** The rules on a text's form: minimum length, pattern, email. */
export function textFormRules(a: ScalarAttribute, v: string, path: string[], out: FieldError[]): void {
  const where = pathText(path);
  // an email attribute's minLength is replaced by Strapi's own minimum of one character (yup keeps one
  // `min` test per field), so the user's `minLength: 6` lets `a@b.c` through there
  if (a.minLength !== undefined && a.type !== 'email' && v.length < a.minLength) out.push(fieldError(path, `${where} must be at least ${a.minLength} characters`, v));
  // like yup's matches(…, {excludeEmptyString}): "" passes a pattern unless the field is required
  const pattern = a.regex ?? (a.type === 'uid' ? UID_FORMAT : undefined);
  const regex = pattern === undefined ? undefined : new RegExp(pattern);
  if (regex !== undefined && (v !== '' || a.required) && !regex.test(v)) {
    // the pattern as a regex literal prints it, its slashes escaped (`/\/^a$\//`), as yup names it
    out.push(fieldError(path, `${where} must match the following: "${String(regex)}"`, v));
  }
  // yup's email test passes "", which its minimum of one character then refuses
  if (a.type === 'email' && v === '') out.push(fieldError(path, `${where} cannot be empty`, v));
  if (a.type === 'email' && v !== '' && !isEmailAddress(v)) out.push(fieldError(path, `${where} must be a valid email`, v));
}

function scalarRules(a: ScalarAttribute, v: unknown, path: string[], out: FieldError[]): void {
  const where = pathText(path);
  if (typeof v === 'string') {
    textFormRules(a, v, path, out);
    if (a.type === 'biginteger' && a.min !== undefined && /^-?\d+$/.test(v) && BigInt(v) < BigInt(Math.ceil(a.min))) {
      out.push(fieldError(path, `${where} must be greater than or equal to ${a.min}`, v));
    }
  }
  if (typeof v === 'number' && a.min !== undefined && v < a.min) out.push(fieldError(path, `${where} must be greater than or equal to ${a.min}`, v));
}

function countRules(a: { min?: number; max?: number; required: boolean }, items: readonly unknown[], path: string[], out: FieldError[]): void {
  // as Strapi's: an optional list may be empty whatever its minimum (a document saved without it stays writable)
  if (a.min !== undefined && items.length < a.min && (a.required || items.length > 0))
    out.push(fieldError(path, `${pathText(path)} field must have at least ${a.min} items`, items));
  if (a.max !== undefined && items.length > a.max) out.push(fieldError(path, `${pathText(path)} field must have less than or equal to ${a.max} items`, items));
}

function validate(model: Model, schema: ContentType | Component, values: Values, opts: PublishOptions, path: string[], out: FieldError[]): void {
  const nested = path.length > 0;
  for (const a of schema.attributes.values()) {
    const p = [...path, a.name];
    // a conditional field whose condition doesn't hold is left unchecked, as Strapi's validator does
    if (!isVisible(a, values)) continue;
    // required relations and media are not enforced (Strapi only does with strictRelations)
    if (a.required && a.kind !== 'relation' && a.kind !== 'media') {
      const e = requiredError(a, values, p, opts, nested);
      if (e) {
        out.push(e);
        continue;
      }
    }
    const v = Object.hasOwn(values, a.name) ? values[a.name] : undefined;
    if (v === null || v === undefined) continue;
    if (a.kind === 'scalar') scalarRules(a, v, p, out);
    else if (a.kind === 'component') {
      const comp = model.components.get(a.component);
      if (!comp) continue;
      if (a.repeatable && Array.isArray(v)) {
        countRules(a, v, p, out);
        v.forEach((item, i) => {
          if (isObj(item)) validate(model, comp, item, opts, [...p, String(i)], out);
        });
      } else if (isObj(v)) validate(model, comp, v, opts, p, out);
    } else if (a.kind === 'dynamiczone' && Array.isArray(v)) {
      countRules(a, v, p, out);
      v.forEach((entry, i) => {
        const uid = isObj(entry) ? entry['__component'] : undefined;
        const comp = typeof uid === 'string' ? model.components.get(uid) : undefined;
        if (comp && isObj(entry)) validate(model, comp, entry, opts, [...p, String(i)], out);
      });
    }
  }
}

/**
 * The publish-time field errors of a row's final values: scalars by attribute name, components as
 * plain objects (arrays when repeatable), dynamic-zone entries as objects with `__component`.
 * Returns them in schema order; the caller throws ValidationError.of(errors) when there are any.
 */
export function validateForPublish(model: Model, schema: ContentType | Component, values: Record<string, unknown>, opts: PublishOptions): FieldError[] {
  const out: FieldError[] = [];
  validate(model, schema, values, opts, [], out);
  return out;
}
