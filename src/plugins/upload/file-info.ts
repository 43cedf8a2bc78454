// `fileInfo`: the editable information of a file (name, alternativeText, caption, focalPoint),
// sent as a JSON string per file. Errors use the validation shape of behaviour.md §2.2.
import { ValidationError, type FieldError } from '../../errors.js';
import { jsonDeeperThan, MAX_JSON_DEPTH } from '../../values/json-depth.js';
import { notTypeMessage } from '../../documents/input/messages.js';

export interface FocalPoint {
  readonly x: number;
  readonly y: number;
}

/** undefined = not given (keep / default), null = cleared */
export interface FileInfo {
  readonly name?: string | null;
  readonly alternativeText?: string | null;
  readonly caption?: string | null;
  readonly focalPoint?: FocalPoint | null;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

class Collector {
  readonly errors: FieldError[] = [];
  add(path: string[], message: string, value?: unknown): void {
    const e: FieldError = { path, message, name: 'ValidationError' };
    if (value !== undefined) e.value = value;
    this.errors.push(e);
  }
}

function label(path: string[]): string {
  return path.reduce((s, p) => (/^\d+$/.test(p) ? `${s}[${p}]` : s ? `${s}.${p}` : p), '');
}

/**
 * yup's object cast, which Strapi's fileInfo check applies (it is not strict): a string is read as
 * JSON, and anything that then is no object is null
 */
function objectCast(v: unknown): Record<string, unknown> | null {
  let parsed = v;
  if (typeof v === 'string') {
    try {
      parsed = JSON.parse(v);
    } catch {
      return null;
    }
  }
  return isObject(parsed) ? parsed : null;
}

/** yup's string cast: a number or boolean becomes its text; an object or list is a type error */
function text(c: Collector, path: string[], v: unknown): string | null | undefined {
  if (v === undefined || v === null) return v;
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  c.add(path, notTypeMessage(path, 'string', v), v);
  return undefined;
}

/** Text stored as given; U+0000 can't be (PostgreSQL). The name has its own character rule. */
function storedText(c: Collector, path: string[], v: unknown): string | null | undefined {
  const s = text(c, path, v);
  if (typeof s !== 'string' || !s.includes('\u0000')) return s;
  c.add(path, `${label(path)} must not contain the character U+0000`, v);
  return undefined;
}

/** yup's number cast: a string is read without its spaces ('' and text are NaN), null is no number */
function coordinate(c: Collector, path: string[], v: unknown): number {
  if (v === undefined) {
    c.add(path, `${label(path)} is a required field`);
    return 0;
  }
  const stripped = typeof v === 'string' ? v.replace(/\s/g, '') : undefined;
  const n = stripped === undefined ? v : stripped === '' ? Number.NaN : Number(stripped);
  if (typeof n !== 'number' || Number.isNaN(n)) {
    c.add(path, notTypeMessage(path, 'number', n, v), n);
    return 0;
  }
  if (n < 0) c.add(path, `${label(path)} must be greater than or equal to 0`, v);
  if (n > 100) c.add(path, `${label(path)} must be less than or equal to 100`, v);
  return n;
}

/** a focal point that is no object is cast to null, and so cleared (as Strapi stores it) */
function focalPoint(c: Collector, path: string[], v: unknown): FocalPoint | null | undefined {
  if (v === undefined || v === null) return v;
  const o = objectCast(v);
  if (o === null) return null;
  return { x: coordinate(c, [...path, 'x'], o['x']), y: coordinate(c, [...path, 'y'], o['y']) };
}

function checkOne(c: Collector, path: string[], v: unknown): FileInfo {
  if (v === undefined) return {};
  const o = v === null ? null : objectCast(v);
  if (o === null) {
    c.add(path, notTypeMessage(path, 'object', null, v), null);
    return {};
  }
  // unknown keys are ignored, as Strapi does
  const out: { -readonly [K in keyof FileInfo]: FileInfo[K] } = {};
  const name = text(c, [...path, 'name'], o['name']);
  if (name !== undefined) out.name = name;
  const alt = storedText(c, [...path, 'alternativeText'], o['alternativeText']);
  if (alt !== undefined) out.alternativeText = alt;
  const caption = storedText(c, [...path, 'caption'], o['caption']);
  if (caption !== undefined) out.caption = caption;
  const fp = focalPoint(c, [...path, 'focalPoint'], o['focalPoint']);
  if (fp !== undefined) out.focalPoint = fp;
  return out;
}

/** A raw value as received: a JSON string (form field) or an already-parsed value (JSON body). */
/** a form field escapes the body parser's bound on nesting: the same limit, for the same reason */
function tooDeep(c: Collector, path: string[], raw: string): boolean {
  if (!jsonDeeperThan(raw, MAX_JSON_DEPTH)) return false;
  c.add(path, `${label(path)} may nest objects and arrays at most ${MAX_JSON_DEPTH} levels deep`);
  return true;
}

function decode(c: Collector, path: string[], raw: unknown): unknown {
  if (typeof raw !== 'string') return raw;
  if (raw.trim() === '' || tooDeep(c, path, raw)) return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    // left as text: the object cast makes it null, and the entry's check names the text it was cast from
    return raw;
  }
}

/**
 * The fileInfo entries of an upload, in part order: each `fileInfo` field holds one object, or a
 * JSON array of them. Entry i belongs to file i.
 */
export function parseFileInfoList(raws: readonly unknown[], fileCount: number): FileInfo[] {
  const c = new Collector();
  const values: unknown[] = [];
  for (const raw of raws) {
    const v = decode(c, ['fileInfo'], raw);
    if (Array.isArray(v)) values.push(...v);
    else values.push(v);
  }
  if (values.length > fileCount) {
    throw new ValidationError(`${values.length} fileInfo entries were sent for ${fileCount} file(s): send at most one per file, in the order of the files`);
  }
  const multi = fileCount > 1;
  const out = values.map((v, i) => checkOne(c, multi ? ['fileInfo', String(i)] : ['fileInfo'], v));
  if (c.errors.length) throw ValidationError.of(c.errors);
  return out;
}

/**
 * The single fileInfo of an update (`POST /api/upload?id=`). Strapi casts the form field as sent, so a
 * refused one is named by its text (and two fields by the list of both).
 */
export function parseFileInfoUpdate(raws: readonly unknown[]): FileInfo {
  const c = new Collector();
  const raw = raws.length > 1 ? [...raws] : raws[0];
  if (typeof raw === 'string' && raw.trim() === '') return {};
  if (typeof raw === 'string' && tooDeep(c, ['fileInfo'], raw)) throw ValidationError.of(c.errors);
  const info = checkOne(c, ['fileInfo'], raw);
  if (c.errors.length) throw ValidationError.of(c.errors);
  return info;
}
