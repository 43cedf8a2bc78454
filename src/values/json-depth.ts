// How deep JSON may nest. Recursive code (JSON.stringify, validators, serializers) overflows the
// stack on values thousands of levels deep, and one such stored value would break every read that
// includes it. Incoming JSON is refused past MAX_JSON_DEPTH; stored values past MAX_STORED_JSON_DEPTH
// (written before the limit, or by other tools) are read as their text instead of being expanded.

/** arrays and objects an incoming JSON text (a body, a fileInfo field) may nest */
export const MAX_JSON_DEPTH = 64;

/** beyond this a stored json value is returned as its JSON text: still far below any stack limit */
export const MAX_STORED_JSON_DEPTH = 1000;

/**
 * Whether JSON text nests arrays and objects more than `limit` deep, by one pass over the text
 * without parsing it (so without recursion). Brackets inside strings don't count.
 */
export function jsonDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash escapes the next character, a quote included
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}
