// Type checks and casts of one scalar value on write: the checks every write gets, drafts included
// (types, maxima, enumeration membership). Publish-only rules live in validate-publish.ts.
import { ValidationError, type FieldError } from '../../errors.js';
import type { ScalarAttribute } from '../../schema/types.js';
import { BIGINTEGER_RANGE, DECIMAL_RANGE, INTEGER_RANGE } from '../../database/column-limits.js';
import { blockErrors } from './blocks-nodes.js';
import { fieldError, notTypeMessage, pathText } from './messages.js';
import { parseDate, parseDateTime, parseTime } from '../../values/temporal.js';
import { jsonDeeperThan, MAX_JSON_DEPTH } from '../../values/json-depth.js';
import { jsonValueOfString } from '../../values/json-string-input.js';

export type CastResult =
  | { readonly kind: 'ok'; readonly value: unknown }
  /** yup-style errors for this value (a value can break several rules at once) */
  | { readonly kind: 'invalid'; readonly errors: readonly FieldError[] }
  /** a conversion the database layer does in Strapi: reported only if validation passed */
  | { readonly kind: 'unconvertible'; readonly error: ValidationError };

const ok = (value: unknown): CastResult => ({ kind: 'ok', value });
const invalid = (...errors: FieldError[]): CastResult => ({ kind: 'invalid', errors });

const VARCHAR_TYPES = new Set<ScalarAttribute['type']>(['string', 'email', 'password', 'uid']);

function castString(a: ScalarAttribute, v: unknown, path: readonly string[]): CastResult {
  // strict, as in Strapi: 123 is not cast to "123"
  if (typeof v !== 'string') return invalid(fieldError(path, notTypeMessage(path, 'string', v), v));
  const errors: FieldError[] = [];
  // these types are varchar(255) columns on PostgreSQL and MySQL, whatever a longer maxLength says
  // (Strapi answers 500 there, and stores the text on SQLite)
  const column = VARCHAR_TYPES.has(a.type) ? 255 : undefined;
  const max = a.maxLength === undefined ? column : Math.min(a.maxLength, column ?? Infinity);
  if (max !== undefined && v.length > max) errors.push(fieldError(path, `${pathText(path)} must be at most ${max} characters`, v));
  // PostgreSQL can't store U+0000 in text; refused on every dialect so they all keep the same data
  if (v.includes('\u0000')) errors.push(fieldError(path, `${pathText(path)} must not contain the character U+0000`, v));
  if (a.type === 'enumeration' && !(a.enum ?? []).includes(v)) errors.push(notOneOf(a, v, path));
  return errors.length ? invalid(...errors) : ok(v);
}

function notOneOf(a: ScalarAttribute, v: unknown, path: readonly string[]): FieldError {
  // Strapi's list includes null, which joins as an empty string: hence the trailing ", "
  return fieldError(path, `${pathText(path)} must be one of the following values: ${[...(a.enum ?? []), ''].join(', ')}`, v);
}

/**
 * An enumeration is yup's string() without Strapi's strictness: a number or boolean is cast to its
 * text first (5 is "5", then checked against the list); a list or object stays as it is and breaks
 * both the type and the list.
 */
function castEnumeration(a: ScalarAttribute, v: unknown, path: readonly string[]): CastResult {
  if (typeof v === 'number' || typeof v === 'boolean') return castString(a, String(v), path);
  if (typeof v !== 'string') return invalid(fieldError(path, notTypeMessage(path, 'string', v), v), notOneOf(a, v, path));
  return castString(a, v, path);
}

/** yup's number cast: strings lose all whitespace and go through unary plus; "" is NaN. */
function toNumber(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string') {
    const s = v.replace(/\s/g, '');
    return s === '' ? NaN : Number(s);
  }
  return NaN;
}

const COLUMN_RANGE: Partial<Record<ScalarAttribute['type'], readonly [number, number]>> = { integer: INTEGER_RANGE, decimal: DECIMAL_RANGE };

function castNumber(a: ScalarAttribute, v: unknown, path: readonly string[]): CastResult {
  const n = toNumber(v);
  // NaN serialises as null, which is what a client sees as the error's value
  if (Number.isNaN(n)) return invalid(fieldError(path, notTypeMessage(path, 'number', n, v), null));
  const errors: FieldError[] = [];
  if (a.type === 'integer' && !Number.isInteger(n)) errors.push(fieldError(path, `${pathText(path)} must be an integer`, n));
  if (a.type !== 'integer' && !Number.isFinite(n)) errors.push(fieldError(path, `${pathText(path)} must be a finite number`, n));
  if (a.max !== undefined && n > a.max) errors.push(fieldError(path, `${pathText(path)} must be less than or equal to ${a.max}`, n));
  const range = COLUMN_RANGE[a.type];
  if (range && n > range[1] && (a.max === undefined || a.max > range[1])) errors.push(fieldError(path, `${pathText(path)} must be less than or equal to ${range[1]}`, n));
  if (range && n < range[0]) errors.push(fieldError(path, `${pathText(path)} must be greater than or equal to ${range[0]}`, n));
  return errors.length ? invalid(...errors) : ok(n);
}

/** Kept as a string of digits: a 64-bit value doesn't survive a JS number. */
function castBigInteger(a: ScalarAttribute, v: unknown, path: readonly string[]): CastResult {
  const s = typeof v === 'number' && Number.isSafeInteger(v) ? String(v) : typeof v === 'string' ? v.trim() : '';
  if (!/^-?\d+$/.test(s)) return invalid(fieldError(path, `${pathText(path)} must be a valid integer`, v));
  const canonical = BigInt(s).toString();
  if (a.max !== undefined && BigInt(canonical) > BigInt(Math.floor(a.max))) {
    return invalid(fieldError(path, `${pathText(path)} must be less than or equal to ${a.max}`, canonical));
  }
  if (BigInt(canonical) > BIGINTEGER_RANGE[1]) return invalid(fieldError(path, `${pathText(path)} must be less than or equal to ${BIGINTEGER_RANGE[1]}`, canonical));
  if (BigInt(canonical) < BIGINTEGER_RANGE[0]) return invalid(fieldError(path, `${pathText(path)} must be greater than or equal to ${BIGINTEGER_RANGE[0]}`, canonical));
  return ok(canonical);
}

/** yup's boolean cast: true/false, and "true"/"false"/"1"/"0"/1/0 in any case. */
function castBoolean(v: unknown, path: readonly string[]): CastResult {
  if (typeof v === 'boolean') return ok(v);
  if (typeof v === 'string' || typeof v === 'number') {
    if (/^(true|1)$/i.test(String(v))) return ok(true);
    if (/^(false|0)$/i.test(String(v))) return ok(false);
  }
  return invalid(fieldError(path, notTypeMessage(path, 'boolean', v), v));
}

/** Blocks as Strapi checks their nodes (blocks-nodes.ts); the value is stored as sent. */
function blocks(v: unknown[], path: readonly string[]): CastResult {
  const errors = blockErrors(v, path);
  return errors.length ? invalid(...errors) : ok(v);
}

function convert(parse: (v: unknown) => unknown, v: unknown): CastResult {
  try {
    return ok(parse(v));
  } catch (e) {
    if (e instanceof ValidationError) return { kind: 'unconvertible', error: e };
    throw e;
  }
}

/** Checks and casts one scalar value; `null` always passes (it clears the field; required is a publish rule). */
export function castScalar(a: ScalarAttribute, v: unknown, path: readonly string[]): CastResult {
  if (v === null) return ok(null);
  switch (a.type) {
    case 'string':
    case 'text':
    case 'richtext':
    case 'email':
    case 'password':
    case 'uid':
      return castString(a, v, path);
    case 'enumeration':
      return castEnumeration(a, v, path);
    case 'integer':
    case 'float':
    case 'decimal':
      return castNumber(a, v, path);
    case 'biginteger':
      return castBigInteger(a, v, path);
    case 'boolean':
      return castBoolean(v, path);
    case 'date':
      return convert(parseDate, v);
    case 'time':
      return convert(parseTime, v);
    case 'datetime':
    case 'timestamp':
      return convert(parseDateTime, v);
    case 'blocks':
      // Strapi silently stores null for a non-array; a 400 tells the client its content was dropped
      if (!Array.isArray(v)) return invalid(fieldError(path, `${pathText(path)} must be an array of block objects`, v));
      return blocks(v, path);
    case 'json':
      if (typeof v !== 'string') return ok(v);
      // the text becomes a value that later steps recurse over: as deep as a body may nest, no deeper
      if (v.length > MAX_JSON_DEPTH && jsonDeeperThan(v, MAX_JSON_DEPTH)) {
        return invalid(fieldError(path, `${pathText(path)} may nest objects and arrays at most ${MAX_JSON_DEPTH} levels deep`, v));
      }
      return ok(jsonValueOfString(v));
    default: {
      const unknownType: never = a.type;
      throw new Error(`no cast for attribute type ${String(unknownType)}`);
    }
  }
}
