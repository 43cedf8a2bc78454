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
 * `yyyy-MM-dd` at the start of the text, whatever follows it (`2024-01-01T10:00Z`, `2024-01-01 10:00`,
 * `2024-01-01x`): as Strapi 5.54, which stores that date part with only a deprecation warning in its
 * log. A well-formed but impossible day (Feb 30) gets Strapi's second message, `Invalid date`.
 */
export function parseDate(v: unknown): string {
  const m = typeof v === 'string' ? /^(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])/.exec(v) : null;
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

// Datetimes are read with the grammar of date-fns' parseISO, as Strapi 5 reads them: extended and basic
// formats (2026-12-01, 20261201), ordinal (2026-335) and week dates (2026-W49-2), a two-digit century
// (20 is 2000-01-01), a fraction on the last time unit (T10.5 is 10:30), a zone Z, ±hh, ±hhmm or ±hh:mm.
const YEAR = /^(?:(\d{4}|[+-]\d{6})|(\d{2}|[+-]\d{4})$)/;
const DATE_REST = /^-?(?:(\d{3})|(\d{2})(?:-?(\d{2}))?|W(\d{2})(?:-?(\d))?|)$/;
const TIME = /^(\d{2}(?:[.,]\d*)?)(?::?(\d{2}(?:[.,]\d*)?))?(?::?(\d{2}(?:[.,]\d*)?))?$/;
const ZONE = /^([+-])(\d{2})(?::?(\d{2}))?$/;

const isLeap = (year: number): boolean => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

/** The day a date part names, as UTC midnight in ms, or null. */
function dayOf(date: string): number | null {
  const y = YEAR.exec(date);
  if (!y) return null;
  const year = y[1] !== undefined ? Number(y[1]) : Number(y[2]) * 100;
  const rest = DATE_REST.exec(date.slice((y[1] ?? y[2]!).length));
  if (!rest) return null;
  const [, ordinal, month, day, week, weekday] = rest;
  const d = new Date(0);
  if (week !== undefined) {
    const w = Number(week);
    const wd = weekday === undefined ? 0 : Number(weekday) - 1;
    if (w < 1 || w > 53 || wd < 0 || wd > 6) return null;
    // ISO week 1 is the week of January 4th
    d.setUTCFullYear(year, 0, 4);
    d.setUTCDate(d.getUTCDate() + (w - 1) * 7 + wd + 1 - (d.getUTCDay() || 7));
    return d.getTime();
  }
  const m = month === undefined ? 1 : Number(month);
  const dd = day === undefined ? 1 : Number(day);
  const o = ordinal === undefined ? 1 : Number(ordinal);
  if (m < 1 || m > 12 || dd < 1 || dd > daysIn(year, m) || o < 1 || o > (isLeap(year) ? 366 : 365)) return null;
  d.setUTCFullYear(year, m - 1, Math.max(o, dd));
  return d.getTime();
}

const unit = (v: string | undefined): number => (v === undefined ? 0 : Number(v.replace(',', '.')));

/** The time of day a time part names, in ms, or null. */
function timeOf(time: string): number | null {
  const t = TIME.exec(time);
  if (!t) return null;
  const [h, m, sec] = [unit(t[1]), unit(t[2]), unit(t[3])];
  if (h === 24 ? m !== 0 || sec !== 0 : h < 0 || h >= 25 || m < 0 || m >= 60 || sec < 0 || sec >= 60) return null;
  // date-fns's sum, fractions of a millisecond included: the Date made of it drops them (`.9999` is 999 ms)
  return h * 3_600_000 + m * 60_000 + sec * 1000;
}

/** The offset a zone names, to add to a local time, in ms, or null. */
function offsetOf(zone: string): number | null {
  if (zone === 'Z') return 0;
  const z = ZONE.exec(zone);
  // date-fns reads a zone it can't parse as UTC
  if (!z) return 0;
  const minutes = z[3] === undefined ? 0 : Number(z[3]);
  if (minutes > 59) return null;
  return (z[1] === '+' ? -1 : 1) * (Number(z[2]) * 60 + minutes) * 60_000;
}

function fromIso(s: string): Date | null {
  const halves = s.split(/[T ]/);
  if (halves.length > 2) return null;
  // a first half with a colon is a time without a date: no day to read it on
  if (halves[0]!.includes(':')) return null;
  let date = halves[0]!;
  let time = halves[1] ?? '';
  const z = /z/i.exec(date);
  if (z) {
    time = s.slice(z.index);
    date = date.slice(0, z.index);
  }
  const zoneAt = /[Z+-]/.exec(time);
  const zone = zoneAt ? time.slice(zoneAt.index) : null;
  if (zoneAt) time = time.slice(0, zoneAt.index);
  const day = date === '' ? null : dayOf(date);
  const clock = time === '' ? 0 : timeOf(time);
  const offset = zone === null ? 0 : offsetOf(zone);
  if (day === null || clock === null || offset === null) return null;
  const out = new Date(day + clock + offset);
  return Number.isNaN(out.getTime()) ? null : out;
}

/**
 * An ISO 8601 date or datetime (parseISO's grammar above), or else an epoch in milliseconds (integer
 * number or string of digits): `20261201` is a date, `1764547200000` an epoch, as text or number. Without an offset the value is read as UTC, so the result doesn't depend on
 * the server's time zone (Strapi reads it in server-local time; the same on a UTC server).
 */
export function parseDateTime(v: unknown): Date {
  let out: Date | null = null;
  // a number is read as its text first, as Strapi does: 2024 is a year, 20240601 a day, 1764547200000 an epoch
  if (typeof v === 'number') out = Number.isInteger(v) ? (fromIso(String(v)) ?? new Date(v)) : null;
  else if (typeof v === 'string') out = fromIso(v) ?? (/^-?\d+$/.test(v) ? new Date(Number(v)) : null);
  if (out === null || Number.isNaN(out.getTime())) throw new ValidationError(DATETIME_FORMAT);
  if (!storableYear(out.getUTCFullYear())) throw new ValidationError(`${DATETIME_FORMAT} between the years 1 and 9999`);
  return out;
}
