// Whether stored text is one JSON value, checked by a single pass over its characters without
// building the value: the test a stored json/blocks value passes before its text is written into a
// response as it is (stored-json.ts). Building the value only to serialize it again was a quarter
// of an uncached list's CPU.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function isHex(c: number): boolean {
  return isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}

function skipSpace(t: string, i: number): number {
  while (i < t.length && isSpace(t.charCodeAt(i))) i++;
  return i;
}

// the characters a string may hold unescaped, but for surrogates: a run of them is skipped by the
// regular expression engine's native code, several times quicker than a loop over char codes
// eslint-disable-next-line no-control-regex -- control characters are what a JSON string may not hold raw
const PLAIN_RUN = /[^"\\\u0000-\u001f\ud800-\udfff]*/y;

/**
 * The index after the string opening at `i`, or -1. A surrogate must be half of a pair: written out
 * as it is, a lone one would become U+FFFD, where JSON.stringify escapes it.
 */
function endOfString(t: string, i: number): number {
  for (i++; ;) {
    PLAIN_RUN.lastIndex = i;
    PLAIN_RUN.test(t);
    i = PLAIN_RUN.lastIndex;
    if (i >= t.length) return -1;
    const c = t.charCodeAt(i);
    if (c === QUOTE) return i + 1;
    if (c === BACKSLASH) {
      const e = t.charCodeAt(i + 1);
      if (e === 0x75) {
        for (let k = i + 2; k < i + 6; k++) if (!isHex(t.charCodeAt(k))) return -1;
        i += 6;
      } else if (e === QUOTE || e === BACKSLASH || e === 0x2f || e === 0x62 || e === 0x66 || e === 0x6e || e === 0x72 || e === 0x74) i += 2;
      else return -1;
    } else if (c >= 0xd800 && c <= 0xdbff) {
      const low = t.charCodeAt(i + 1);
      if (!(low >= 0xdc00 && low <= 0xdfff)) return -1;
      i += 2;
    } else return -1; // a control character or a lone low surrogate
  }
}

function endOfDigits(t: string, i: number): number {
  while (i < t.length && isDigit(t.charCodeAt(i))) i++;
  return i;
}

/** The index after the number starting at `i` (`-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?`), or -1. */
function endOfNumber(t: string, i: number): number {
  if (t.charCodeAt(i) === 0x2d) i++;
  const first = t.charCodeAt(i);
  if (first === 0x30) i++;
  else if (isDigit(first)) i = endOfDigits(t, i + 1);
  else return -1;
  if (t.charCodeAt(i) === 0x2e) {
    if (!isDigit(t.charCodeAt(i + 1))) return -1;
    i = endOfDigits(t, i + 1);
  }
  const e = t.charCodeAt(i);
  if (e === 0x65 || e === 0x45) {
    i++;
    const sign = t.charCodeAt(i);
    if (sign === 0x2b || sign === 0x2d) i++;
    if (!isDigit(t.charCodeAt(i))) return -1;
    i = endOfDigits(t, i);
  }
  return i;
}

function endOfWord(t: string, i: number, word: string): number {
  return t.startsWith(word, i) ? i + word.length : -1;
}

/** The index after the scalar (string, number, literal) starting at `i`, or -1. */
function endOfScalar(t: string, i: number): number {
  const c = t.charCodeAt(i);
  if (c === QUOTE) return endOfString(t, i);
  if (c === 0x74) return endOfWord(t, i, 'true');
  if (c === 0x66) return endOfWord(t, i, 'false');
  if (c === 0x6e) return endOfWord(t, i, 'null');
  return endOfNumber(t, i);
}

/** The index of the value after a member's key and colon starting at `i`, or -1. */
function afterKey(t: string, i: number): number {
  if (t.charCodeAt(i) !== QUOTE) return -1;
  i = endOfString(t, i);
  if (i === -1) return -1;
  i = skipSpace(t, i);
  return t.charCodeAt(i) === COLON ? skipSpace(t, i + 1) : -1;
}

/**
 * Whether `text` is exactly one JSON value (RFC 8259, surrounding space allowed) whose arrays and
 * objects nest at most `maxDepth` deep. Iterative, so no depth can overflow the stack.
 */
export function isJsonText(text: string, maxDepth: number): boolean {
  // the open containers, innermost last: true for an object
  const open: boolean[] = [];
  let i = skipSpace(text, 0);
  for (;;) {
    // a value is expected at i
    const c = text.charCodeAt(i);
    if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (open.length === maxDepth) return false;
      const isObject = c === OPEN_BRACE;
      open.push(isObject);
      i = skipSpace(text, i + 1);
      const close = isObject ? CLOSE_BRACE : CLOSE_BRACKET;
      if (text.charCodeAt(i) === close) {
        open.pop();
        i++;
      } else {
        if (isObject) i = afterKey(text, i);
        if (i === -1) return false;
        continue;
      }
    } else {
      i = endOfScalar(text, i);
      if (i === -1) return false;
    }
    // a value has ended: close containers, or go on to the next member
    for (;;) {
      i = skipSpace(text, i);
      if (open.length === 0) return i === text.length;
      const isObject = open[open.length - 1]!;
      const d = text.charCodeAt(i);
      if (d === (isObject ? CLOSE_BRACE : CLOSE_BRACKET)) {
        open.pop();
        i++;
        continue;
      }
      if (d !== COMMA) return false;
      i = skipSpace(text, i + 1);
      if (isObject) i = afterKey(text, i);
      if (i === -1) return false;
      break;
    }
  }
}
