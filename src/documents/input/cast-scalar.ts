// Type checks and casts of one scalar value on write (the checks drafts get too: types and maxima).
import { ValidationError, type FieldError } from '../../errors.js';
import type { ScalarAttribute } from '../../schema/types.js';

export type CastResult = { ok: true; value: unknown } | { ok: false; error: FieldError };

const STRING_TYPES = new Set(['string', 'text', 'richtext', 'email', 'password', 'uid', 'enumeration']);

function show(v: unknown): string {
  return JSON.stringify(v) ?? String(v);
}

function fail(path: string[], message: string, value?: unknown): CastResult {
  const error: FieldError = { path, message, name: 'ValidationError' };
  if (value !== undefined) error.value = value;
  return { ok: false, error };
}

const pathText = (path: string[]): string => path.reduce((acc, p) => (/^\d+$/.test(p) ? `${acc}[${p}]` : acc ? `${acc}.${p}` : p), '');

function date(v: unknown): string {
  const s = String(v);
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:$|T)/.exec(s);
  if (!m) throw new ValidationError('Invalid format, expected yyyy-MM-dd');
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  if (d.getUTCMonth() !== Number(m[2]) - 1 || d.getUTCDate() !== Number(m[3])) throw new ValidationError('Invalid format, expected yyyy-MM-dd');
  return `${m[1]}-${m[2]}-${m[3]}`;
}

function time(v: unknown): string {
  // seconds are required, as Strapi requires them
  const m = /^(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,3}))?$/.exec(String(v));
  if (!m || Number(m[1]) > 23 || Number(m[2]) > 59 || Number(m[3]) > 59) throw new ValidationError('Invalid time format, expected HH:mm:ss.SSS');
  return `${m[1]}:${m[2]}:${m[3]}.${(m[4] ?? '').padEnd(3, '0')}`;
}

function datetime(v: unknown): Date {
  const d = typeof v === 'number' ? new Date(v) : typeof v === 'string' && v.trim() !== '' ? new Date(/^\d+$/.test(v) ? Number(v) : v) : new Date(NaN);
  if (Number.isNaN(d.getTime())) throw new ValidationError('Invalid format, expected a timestamp or an ISO date');
  return d;
}

export function castScalar(a: ScalarAttribute, v: unknown, path: string[]): CastResult {
  if (v === null) return { ok: true, value: null };
  const where = pathText(path);
  if (STRING_TYPES.has(a.type)) {
    if (typeof v !== 'string') return fail(path, `${where} must be a \`string\` type, but the final value was: \`${show(v)}\`.`, v);
    const max = a.maxLength ?? (a.type === 'string' ? 255 : undefined);
    if (max !== undefined && v.length > max) return fail(path, `${where} must be at most ${max} characters`, v);
    if (a.type === 'enumeration' && !a.enum!.includes(v)) {
      return fail(path, `${where} must be one of the following values: ${[...a.enum!, ''].join(', ')}`, v);
    }
    return { ok: true, value: v };
  }
  switch (a.type) {
    case 'integer':
    case 'float':
    case 'decimal': {
      const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
      if (typeof v === 'boolean' || Number.isNaN(n)) {
        return fail(path, `${where} must be a \`number\` type, but the final value was: \`NaN\` (cast from the value \`${show(v)}\`).`, null);
      }
      if (!Number.isFinite(n)) return fail(path, `${where} must be a finite number`, v);
      if (a.type === 'integer' && !Number.isInteger(n)) return fail(path, `${where} must be an integer`, v);
      if (a.max !== undefined && n > a.max) return fail(path, `${where} must be less than or equal to ${a.max}`, v);
      return { ok: true, value: n };
    }
    case 'biginteger': {
      const s = typeof v === 'number' && Number.isInteger(v) ? String(v) : typeof v === 'string' ? v.trim() : '';
      if (!/^-?\d+$/.test(s)) return fail(path, `${where} must be a valid integer`, v);
      return { ok: true, value: s };
    }
    case 'boolean':
      if (typeof v === 'boolean') return { ok: true, value: v };
      if (v === 'true' || v === 1 || v === '1') return { ok: true, value: true };
      if (v === 'false' || v === 0 || v === '0') return { ok: true, value: false };
      return fail(path, `${where} must be a \`boolean\` type, but the final value was: \`${show(v)}\`.`, v);
    case 'date': return { ok: true, value: date(v) };
    case 'time': return { ok: true, value: time(v) };
    case 'datetime':
    case 'timestamp': return { ok: true, value: datetime(v) };
    case 'blocks':
      if (!Array.isArray(v) || !v.every((b) => typeof b === 'object' && b !== null && !Array.isArray(b))) {
        return fail(path, `${where} must be an array of blocks`, v);
      }
      return { ok: true, value: v };
    default:
      return { ok: true, value: v };
  }
}

export { pathText };
