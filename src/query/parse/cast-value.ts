// Casts a filter value from the query string to the type of the field it's compared with.
import { ValidationError } from '../../errors.js';
import type { FieldRef, SqlValue } from '../ast.js';
import { BIGINTEGER_RANGE, INTEGER_RANGE } from '../../database/column-limits.js';
import { parseDate, parseDateTime, parseTime } from '../../values/temporal.js';

// a value no column holds can't match, and PostgreSQL refuses to compare an integer column with it
function inRange(s: string, [lo, hi]: readonly [number | bigint, number | bigint]): boolean {
  const n = BigInt(s);
  return n >= BigInt(lo) && n <= BigInt(hi);
}

function bad(v: unknown, name: string, expected: string): ValidationError {
  return new ValidationError(`Invalid value ${JSON.stringify(v)} for ${name}: expected ${expected}`, { source: 'query', param: 'filters' });
}

/**
 * An integer written as JavaScript's Number() reads one, as Strapi takes it (`1e3`, `1000.0`,
 * ` 7`), as decimal digits; null when it is no integer. Plain digits are kept as given, so a
 * biginteger beyond 2^53 stays exact. A fraction stays refused: PostgreSQL can't compare an integer
 * column with one.
 */
function integerDigits(s: string): string | null {
  const t = s.trim();
  if (/^[+-]?\d+$/.test(t)) return t.replace(/^\+/, '');
  const n = t === '' ? NaN : Number(t);
  return Number.isSafeInteger(n) ? String(n) : null;
}

export function castBoolean(v: unknown, name: string): boolean {
  if (v === true || v === 'true' || v === 't' || v === '1' || v === 1) return true;
  if (v === false || v === 'false' || v === 'f' || v === '0' || v === 0) return false;
  throw bad(v, name, 'true or false');
}

export function castFilterValue(field: FieldRef, v: unknown, name: string): SqlValue {
  if (v === null) return null;
  if (typeof v === 'object') throw bad(v, name, 'a single value');
  const s = String(v);
  switch (field.valueType) {
    case 'string':
      return s;
    case 'integer': {
      const digits = integerDigits(s);
      if (digits === null) throw bad(v, name, 'an integer');
      if (!inRange(digits, INTEGER_RANGE)) throw bad(v, name, `an integer from ${INTEGER_RANGE[0]} to ${INTEGER_RANGE[1]}`);
      return Number(digits);
    }
    case 'biginteger': {
      const digits = integerDigits(s);
      if (digits === null) throw bad(v, name, 'an integer');
      if (!inRange(digits, BIGINTEGER_RANGE)) throw bad(v, name, `an integer from ${BIGINTEGER_RANGE[0]} to ${BIGINTEGER_RANGE[1]}`);
      return digits;
    }
    case 'number': {
      const n = Number(s);
      if (s.trim() === '' || !Number.isFinite(n)) throw bad(v, name, 'a number');
      return n;
    }
    case 'boolean':
      return castBoolean(v, name);
    case 'date':
      // as a stored value is read, with Strapi's messages: the date part of a full ISO datetime is taken
      return parseDate(s);
    case 'time':
      // seconds are required, as in Strapi (HH:mm is refused there too), with Strapi's message
      return parseTime(s);
    case 'datetime':
      // an ISO date or datetime, or an epoch in milliseconds, as Strapi reads one ('Jan 1 2024' is refused)
      return parseDateTime(s).toISOString();
    case 'json':
      // compared with the stored JSON text, whatever it holds
      return s;
  }
}
