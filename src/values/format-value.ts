// Converts what a driver returns for a column into the JSON value clients see, identical on all
// three dialects (behaviour.md §2.1).
import type { ScalarType } from '../schema/types.js';
import { jsonDeeperThan, MAX_STORED_JSON_DEPTH } from './json-depth.js';
import { isJsonText } from './json-text.js';

export type Formatter = (v: unknown) => unknown;

function pad(n: number, w = 2): string {
  return String(n).padStart(w, '0');
}

/**
 * `YYYY-MM-DD HH:MM:SS[.f…][±HH[:MM]]`: MySQL's DATETIME text (UTC, the connection's time zone) and
 * PostgreSQL's timestamptz text (offset of the session's time zone, `+00` on a UTC server). Rewritten
 * as text when it is UTC: a Date per value cost 7 % of a populated read on PostgreSQL.
 */
function fromSqlText(s: string): string {
  let end = 19;
  let ms = '000';
  if (s[19] === '.') {
    end = 20;
    while (end < s.length && s.charCodeAt(end) >= 48 && s.charCodeAt(end) <= 57) end++;
    ms = s.slice(20, Math.min(end, 23)).padEnd(3, '0');
  }
  const utc = `${s.slice(0, 10)}T${s.slice(11, 19)}.${ms}`;
  const offset = s.slice(end);
  if (offset === '' || offset === '+00') return `${utc}Z`;
  const d = new Date(`${utc}${/^[+-]\d{2}$/.test(offset) ? `${offset}:00` : offset}`);
  return Number.isNaN(d.getTime()) ? s : d.toISOString();
}

export function formatDatetime(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (v instanceof Date) return v.toISOString();
  const s = String(v);
  // SQLite stores the canonical form already: skip the parse on the hot path
  if (s.length === 24 && s[10] === 'T' && s[23] === 'Z') return s;
  if (s.length >= 19 && s[10] === ' ') return fromSqlText(s);
  const d = new Date(s);
  return Number.isNaN(d.getTime()) ? s : d.toISOString();
}

export function formatDate(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (v instanceof Date) return `${v.getUTCFullYear()}-${pad(v.getUTCMonth() + 1)}-${pad(v.getUTCDate())}`;
  return String(v).slice(0, 10);
}

export function formatTime(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  const m = /^(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?/.exec(String(v));
  if (!m) return String(v);
  const ms = (m[4] ?? '').padEnd(3, '0').slice(0, 3);
  return `${m[1]}:${m[2]}:${m[3] ?? '00'}.${ms}`;
}

/** A stored json/blocks value as its parsed value; text that can't be read (or is too deep) as itself. */
export function parseStoredJson(v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (typeof v !== 'string') return v;
  // a value too deep to serialize safely (stored by other means) is answered as its text, as
  // unparsable text is, so one such row can't break every read that includes it (the length test
  // skips the scan for any text too short to be that deep)
  if (v.length > MAX_STORED_JSON_DEPTH && jsonDeeperThan(v, MAX_STORED_JSON_DEPTH)) return v;
  try {
    return JSON.parse(v);
  } catch {
    return v;
  }
}

/** A `timestamp` attribute answers its instant as epoch milliseconds in a string (`"1717236000123"`), as Strapi 5.54 does. */
function formatTimestamp(v: unknown): string | null {
  const iso = formatDatetime(v);
  return iso === null ? null : String(Date.parse(iso));
}

const identity: Formatter = (v) => (v === undefined ? null : v);

export function formatterFor(type: ScalarType): Formatter {
  switch (type) {
    case 'boolean':
      return (v) => (v === null || v === undefined ? null : v === true || v === 1 || v === '1');
    case 'integer':
      return (v) => (v === null || v === undefined ? null : Number(v));
    case 'float':
    case 'decimal':
      return (v) => (v === null || v === undefined ? null : Number(v));
    case 'biginteger':
      return (v) => (v === null || v === undefined ? null : String(v));
    case 'date':
      return formatDate;
    case 'time':
      return formatTime;
    case 'datetime':
      return formatDatetime;
    case 'timestamp':
      return formatTimestamp;
    case 'json':
    case 'blocks':
      return parseStoredJson;
    default:
      return identity;
  }
}

/**
 * Serialises a value for storage in a json/blocks column (text on every dialect). A string that is
 * no JSON text is stored as it is, as Strapi 5.54 stores it (its JSON field serialises objects only):
 * filters and sorts compare that text (`$eq=hello`), and it reads back as the same string.
 */
export function storeJson(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  return typeof v === 'string' && !isJsonText(v, MAX_STORED_JSON_DEPTH) ? v : JSON.stringify(v);
}
