// The row id in the path of /users/:id, /users-permissions/roles/:id|:role, /upload/files/:id and in
// the upload's `?id=`. Strapi 5.54 hands the text to the database as it is, so on SQLite (the
// reference) the column's numeric affinity decides: any decimal number literal, with whitespace
// around it, names the row its value equals (`5.0`, ` 5`, `+5`, `5e0`, `05`, `.5e1` all name row 5),
// and anything else names no row. Folio reads the same forms on every dialect, with the exact value
// of the literal: SQLite converts through a double, so `4.99999999999999999` names row 5 there; here
// it names no row.
import { rowId } from './refs.js';

/** SQLite's whitespace (sqlite3Isspace): no-break and other Unicode spaces are not among it */
const LITERAL = /^[ \t\n\v\f\r]*([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?[ \t\n\v\f\r]*$/;

/** more digits than any row id has: past this a literal's value names no row */
const MAX_DIGITS = 12;

/** The positive row id a path segment names, or undefined when it names none (→ 404). */
export function pathRowId(text: string): number | undefined {
  const m = LITERAL.exec(text);
  if (!m) return undefined;
  const [, sign = '', whole = '', fraction = '', exponentText = '0'] = m;
  // a literal needs a digit on one side of its point (`.e1`, `e1` and `.` are not numbers)
  if (whole === '' && fraction === '') return undefined;
  // the value is digits × 10^exponent, exactly: no double rounding on the way
  const digits = (whole + fraction).replace(/^0+/, '');
  if (digits === '' || sign === '-') return undefined;
  const exponent = Number(exponentText) - fraction.length;
  let integer: string;
  if (exponent >= 0) {
    if (digits.length + exponent > MAX_DIGITS) return undefined;
    integer = digits + '0'.repeat(exponent);
  } else {
    const cut = digits.length + exponent;
    // a non-zero digit after the point: not an integer, so no row has it as its id
    if (cut <= 0 || !/^0*$/.test(digits.slice(cut))) return undefined;
    integer = digits.slice(0, cut);
  }
  return integer.length > MAX_DIGITS ? undefined : rowId(integer);
}
