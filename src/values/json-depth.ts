// How deep JSON may nest. Recursive code (JSON.stringify, validators, serializers) overflows the
// stack on values thousands of levels deep, and one such stored value would break every read that
// includes it. Incoming JSON is refused past MAX_JSON_DEPTH; stored values past MAX_STORED_JSON_DEPTH
// (written before the limit, or by other tools) are read as their text instead of being expanded.

/** arrays and objects an incoming JSON text (a body, a fileInfo field) may nest */
export const MAX_JSON_DEPTH = 64;

/** beyond this a stored json value is returned as its JSON text: still far below any stack limit */
export const MAX_STORED_JSON_DEPTH = 1000;

/** Whether `text` holds at least `n` opening brackets, found by the engine's native search. */
function openersAtLeast(text: string, n: number): boolean {
  let count = 0;
  for (const opener of ['{', '[']) {
    for (let i = text.indexOf(opener); i !== -1; i = text.indexOf(opener, i + 1)) if (++count >= n) return true;
  }
  return false;
}

/**
 * Whether JSON text nests arrays and objects more than `limit` deep, by one pass over the text
 * without parsing it (so without recursion). Brackets inside strings don't count.
 */
export function jsonDeeperThan(text: string, limit: number): boolean {
  // nesting that deep needs that many opening brackets: a stored rich-text value has a few dozen,
  // and counting them natively is ~30 times quicker than the character loop below
  if (!openersAtLeast(text, limit + 1)) return false;
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
