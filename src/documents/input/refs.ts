// The two ways a write names another row: a documentId string or a numeric row id.
import { INTEGER_RANGE } from '../../database/column-limits.js';

/**
 * A row id as a write body names a linked row: any integer a row id column holds, as a number or a
 * string of digits. Zero and negative ones name no row, and are reported as Strapi does: "N relation(s)
 * … do not exist".
 */
export function refId(v: unknown): number | undefined {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : NaN;
  return Number.isSafeInteger(n) && n >= INTEGER_RANGE[0] && n <= INTEGER_RANGE[1] ? n : undefined;
}

/** A positive row id given as a number or a string of digits, or undefined (a number past 32 bits names no row). */
export function rowId(v: unknown): number | undefined {
  const n = refId(v);
  return n !== undefined && n > 0 ? n : undefined;
}

/** A string that could be a documentId: not empty, and without U+0000 (no stored text holds it). */
export function documentIdText(v: unknown): v is string {
  return typeof v === 'string' && v !== '' && !v.includes('\u0000');
}
