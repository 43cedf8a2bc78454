// The address grammar an `email` attribute is checked with when a published row is written: the one
// yup 0.32 (Strapi 5.54's validator) applies, an RFC 5322 subset. Unlike the browser's grammar it
// wants a dot in the domain and a last label that starts and ends with a letter (`a@b` is refused),
// takes a quoted local part, and lets labels hold `_`, `~` and `.` inside. Letters are ASCII in either
// case or any character from U+00A0 on except surrogates and U+FDD0–U+FDEF. Checked by a scan, not one
// regular expression, so an adversarial value costs linear time.

const isUnicode = (c: number): boolean => (c >= 0xa0 && c <= 0xd7ff) || (c >= 0xf900 && c <= 0xfdcf) || (c >= 0xfdf0 && c <= 0xffef);
const isLetter = (c: number): boolean => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || isUnicode(c);
const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;
const ATOM_SIGNS = new Set("!#$%&'*+-/=?^_`{|}~".split('').map((ch) => ch.charCodeAt(0)));
const LABEL_INNER_SIGNS = new Set('-._~'.split('').map((ch) => ch.charCodeAt(0)));

const codes = (s: string): number[] => Array.from({ length: s.length }, (_, i) => s.charCodeAt(i));

/** dot-separated runs of letters, digits and the atom signs */
function isDotAtom(local: string): boolean {
  if (local === '') return false;
  return local.split('.').every((part) => part !== '' && codes(part).every((c) => isLetter(c) || isDigit(c) || ATOM_SIGNS.has(c)));
}

/** a double-quoted string: printable text, backslash pairs and folded white space */
function isQuoted(local: string): boolean {
  if (local.length < 2 || !local.startsWith('"') || !local.endsWith('"')) return false;
  const c = codes(local.slice(1, -1));
  for (let i = 0; i < c.length; i++) {
    const x = c[i]!;
    if (x === 0x5c) {
      const next = c[++i];
      if (next === undefined || !((next >= 0x01 && next <= 0x09) || next === 0x0b || next === 0x0c || (next >= 0x0d && next <= 0x7f) || isUnicode(next))) return false;
    } else if (x === 0x0d) {
      // a line break only as CR LF followed by a space or a tab
      if (c[i + 1] !== 0x0a || (c[i + 2] !== 0x20 && c[i + 2] !== 0x09)) return false;
      i++;
    } else if (!(
      x === 0x20 ||
      x === 0x09 ||
      (x >= 0x01 && x <= 0x08) ||
      x === 0x0b ||
      x === 0x0c ||
      (x >= 0x0e && x <= 0x1f) ||
      x === 0x21 ||
      (x >= 0x23 && x <= 0x5b) ||
      (x >= 0x5d && x <= 0x7f) ||
      isUnicode(x)
    )) {
      return false;
    }
  }
  return true;
}

/**
 * Labels, then a dot, then a last label. Labels may hold `.`, so this is: every character a letter,
 * digit or one of `-._~`; the first a letter or digit; the last a letter; and some dot with a letter
 * or digit before it and a letter after it.
 */
function isDomain(domain: string): boolean {
  const c = codes(domain);
  const alnum = (x: number | undefined): boolean => x !== undefined && (isLetter(x) || isDigit(x));
  if (c.length < 3 || !alnum(c[0]) || !isLetter(c[c.length - 1]!)) return false;
  if (!c.every((x) => alnum(x) || LABEL_INNER_SIGNS.has(x))) return false;
  return c.some((x, i) => x === 0x2e && i > 0 && alnum(c[i - 1]) && c[i + 1] !== undefined && isLetter(c[i + 1]!));
}

/** Whether `v` is an address yup 0.32's `string().email()` accepts. */
export function isEmailAddress(v: string): boolean {
  const at = v.lastIndexOf('@');
  if (at < 0) return false;
  const local = v.slice(0, at);
  return (isDotAtom(local) || isQuoted(local)) && isDomain(v.slice(at + 1));
}
