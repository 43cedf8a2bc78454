// Casts a filter value from the query string to the type of the field it's compared with.
import { ValidationError } from '../../errors.js';
import type { FieldRef, SqlValue } from '../ast.js';

function bad(v: unknown, name: string, expected: string): ValidationError {
  return new ValidationError(`Invalid value ${JSON.stringify(v)} for ${name}: expected ${expected}`, { source: 'query', param: 'filters' });
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
    case 'string': return s;
    case 'integer':
      if (!/^-?\d+$/.test(s.trim())) throw bad(v, name, 'an integer');
      return Number(s);
    case 'biginteger':
      if (!/^-?\d+$/.test(s.trim())) throw bad(v, name, 'an integer');
      return s.trim();
    case 'number': {
      const n = Number(s);
      if (s.trim() === '' || !Number.isFinite(n)) throw bad(v, name, 'a number');
      return n;
    }
    case 'boolean': return castBoolean(v, name);
    case 'date': {
      const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
      if (!m || Number.isNaN(Date.parse(`${s}T00:00:00Z`))) throw bad(v, name, 'a date (yyyy-MM-dd)');
      return s;
    }
    case 'time': {
      const m = /^(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?$/.exec(s);
      if (!m) throw bad(v, name, 'a time (HH:mm:ss.SSS)');
      return `${m[1]}:${m[2]}:${m[3] ?? '00'}.${(m[4] ?? '').padEnd(3, '0')}`;
    }
    case 'datetime': {
      const d = /^-?\d+$/.test(s) ? new Date(Number(s)) : new Date(s);
      if (Number.isNaN(d.getTime())) throw bad(v, name, 'an ISO date or a timestamp');
      return d.toISOString();
    }
    case 'json': throw bad(v, name, 'a filterable field');
  }
}
