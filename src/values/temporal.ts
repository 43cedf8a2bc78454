// Date, time and datetime values → their stored form. In Strapi these conversions happen in the
// database layer, after validation, so a bad value is a plain ValidationError (details {}), not a
// field error; callers report them only when validation found nothing else.
import { storableYear } from '../database/column-limits.js';
import { ValidationError } from '../errors.js';

const DATE_FORMAT = 'Invalid format, expected yyyy-MM-dd';
const TIME_FORMAT = 'Invalid time format, expected HH:mm:ss.SSS';
const DATETIME_FORMAT = 'Invalid format, expected a timestamp or an ISO date';

function daysIn(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/**
 * `yyyy-MM-dd`, or the date part of an ISO datetime. A well-formed but impossible day (Feb 30)
 * gets Strapi's second message, `Invalid date`.
 */
export function parseDate(v: unknown): string {
  const m = typeof v === 'string' ? /^(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])(?:$|T)/.exec(v) : null;
  if (!m) throw new ValidationError(DATE_FORMAT);
  const [, y, mo, d] = m as unknown as [string, string, string, string];
  if (!storableYear(Number(y)) || Number(d) > daysIn(Number(y), Number(mo))) throw new ValidationError('Invalid date');
  return `${y}-${mo}-${d}`;
}

/** `HH:mm:ss` with optional milliseconds, stored as `HH:mm:ss.SSS`. Seconds are required, as in Strapi. */
export function parseTime(v: unknown): string {
  if (typeof v !== 'string') throw new ValidationError(`Expected a string, got a ${v === null ? 'object' : typeof v}`);
  const m = /^([01]\d|2[0-3]):([0-5]\d):([0-5]\d)(?:\.(\d{1,3}))?$/.exec(v);
  if (!m) throw new ValidationError(TIME_FORMAT);
  return `${m[1]}:${m[2]}:${m[3]}.${(m[4] ?? '').padEnd(3, '0')}`;
}

const ISO = /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:[T ](\d{2})(?::(\d{2})(?::(\d{2})(?:[.,](\d+))?)?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?)?)?$/;

function fromIso(s: string): Date | null {
  const m = ISO.exec(s);
  if (!m) return null;
  const [, y, mo = '01', d = '01', h = '00', mi = '00', sec = '00', frac = '', zone] = m;
  const year = Number(y),
    month = Number(mo),
    day = Number(d),
    hour = Number(h),
    minute = Number(mi),
    second = Number(sec);
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return null;
  if (minute > 59 || second > 59 || hour > 24 || (hour === 24 && (minute > 0 || second > 0 || /[1-9]/.test(frac)))) return null;
  const ms = Number(`0.${frac || '0'}`) * 1000;
  let t = Date.UTC(year, month - 1, day, hour, minute, second) + Math.round(ms);
  if (zone && zone !== 'Z') {
    const z = /^([+-])(\d{2}):?(\d{2})?$/.exec(zone)!;
    const offset = (Number(z[2]) * 60 + Number(z[3] ?? 0)) * 60_000;
    if (Number(z[2]) > 23 || Number(z[3] ?? 0) > 59) return null;
    t += z[1] === '+' ? -offset : offset;
  }
  const out = new Date(t);
  return Number.isNaN(out.getTime()) ? null : out;
}

/**
 * An ISO 8601 date or datetime (extended format), or an epoch in milliseconds (integer number or
 * string of digits). Without an offset the value is read as UTC, so the result doesn't depend on
 * the server's time zone (Strapi reads it in server-local time; the same on a UTC server).
 */
export function parseDateTime(v: unknown): Date {
  let out: Date | null = null;
  if (typeof v === 'number') out = Number.isInteger(v) ? new Date(v) : null;
  else if (typeof v === 'string') out = fromIso(v) ?? (/^-?\d+$/.test(v) ? new Date(Number(v)) : null);
  if (out === null || Number.isNaN(out.getTime())) throw new ValidationError(DATETIME_FORMAT);
  if (!storableYear(out.getUTCFullYear())) throw new ValidationError(`${DATETIME_FORMAT} between the years 1 and 9999`);
  return out;
}
