// Field errors worded the way Strapi's yup-based validator words them, so clients that match on
// messages (or show them to editors) see the same text. Paths are lodash-toPath arrays (indices as
// strings); messages name the field yup-style: `links[0].url`.
import type { FieldError } from '../../errors.js';

/** `["links","0","url"]` → `links[0].url` */
export function pathText(path: readonly string[]): string {
  let out = '';
  for (const p of path) out += /^\d+$/.test(p) ? `[${p}]` : out === '' ? p : `.${p}`;
  return out === '' ? 'this' : out;
}

/** `value` is left out when undefined, as JSON would drop it anyway and yup does for missing fields. */
export function fieldError(path: readonly string[], message: string, value?: unknown): FieldError {
  const e: FieldError = { path: [...path], message, name: 'ValidationError' };
  if (value !== undefined) e.value = value;
  return e;
}

function printSimple(v: unknown): string | null {
  if (v === null || v === undefined || typeof v === 'boolean') return String(v);
  if (typeof v === 'number') return Object.is(v, -0) ? '-0' : String(v);
  if (typeof v === 'string') return `"${v}"`;
  if (typeof v === 'bigint') return `${v}n`;
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? String(v) : v.toISOString();
  return null;
}

/**
 * A value as yup prints it inside messages: strings in double quotes (unescaped), objects as
 * two-space JSON in which nested simple values are printed the same way, so a nested string shows
 * as `"\"x\""` and a nested number as `"1"`. Odd, but it is what Strapi clients see.
 */
export function printValue(v: unknown): string {
  const simple = printSimple(v);
  if (simple !== null) return simple;
  return (
    JSON.stringify(
      v,
      function (this: Record<string, unknown>, key: string, inner: unknown) {
        const s = key === '' ? null : printSimple(this[key]);
        return s ?? inner;
      },
      2,
    ) ?? String(v)
  );
}

/**
 * yup's type error. `original` is the value before casting; when it differs from the final value
 * the message says what it was cast from (numbers cast from strings).
 */
export function notTypeMessage(path: readonly string[], type: string, value: unknown, original: unknown = value): string {
  const cast = original !== null && original !== undefined && !Object.is(original, value) ? ` (cast from the value \`${printValue(original)}\`).` : '.';
  if (type === 'mixed') return `${pathText(path)} must match the configured type. The validated value was: \`${printValue(value)}\`${cast}`;
  return `${pathText(path)} must be a \`${type}\` type, but the final value was: \`${printValue(value)}\`${cast}`;
}

/** whether two field paths name the same place */
export function samePath(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((seg, i) => seg === b[i]);
}

/** the longest value a message of Folio's own repeats; past it the value is cut with an ellipsis */
const MAX_SHOWN = 200;

/**
 * A value as messages of Folio's own show it (relation and media values, which Strapi answers
 * otherwise): compact JSON, so a number reads as a number and a string as one escaped string.
 */
export function shownValue(v: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(v) ?? String(v);
  } catch {
    text = String(v);
  }
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}…` : text;
}
