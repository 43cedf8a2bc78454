// Table and column names as Strapi 5 makes them when they would run past 55 characters: each part
// of the name that may shrink keeps its start and ends in 5 hex characters of its own hash, and the
// fixed parts (`cmps`, `lnk`) are kept whole. PostgreSQL cuts names at 63 bytes and MySQL refuses
// names past 64, so a long collection or attribute name must shrink somehow; shrinking it as Strapi
// does lets Folio open a database Strapi made with the same names.
import { createHash } from 'node:crypto';

/** Strapi 5's limit for the names it makes (leaving room under 63 for its index suffixes) */
export const MAX_IDENTIFIER = 55;
const HASH_LENGTH = 5;
/** a part never shrinks below its first 3 characters and its hash */
const MIN_PART = 3;

/** One part of a name; a fixed part is never shortened. */
export interface NamePart {
  readonly name: string;
  readonly fixed?: boolean;
}

function hashOf(name: string): string {
  return createHash('shake256', { outputLength: Math.ceil(HASH_LENGTH / 2) })
    .update(name)
    .digest('hex')
    .slice(0, HASH_LENGTH);
}

/** `name` in at most `length` characters: its start and its hash when it is longer */
function fit(name: string, length: number): string {
  return name.length <= length ? name : `${name.slice(0, length - HASH_LENGTH)}${hashOf(name)}`;
}

/**
 * The parts joined with `_`, shortened to MAX_IDENTIFIER as Strapi 5 shortens them: the room left by
 * the fixed parts is shared evenly by the others, a part shorter than its share gives the rest back,
 * and the rest goes one character at a time to the parts still too long, in order.
 */
export function identifier(parts: readonly NamePart[]): string {
  const whole = parts.map((p) => p.name).join('_');
  if (whole.length <= MAX_IDENTIFIER) return whole;
  const shrinking = parts.filter((p) => !p.fixed);
  const fixedLength = parts.reduce((n, p) => n + (p.fixed ? p.name.length : 0), 0);
  const available = MAX_IDENTIFIER - fixedLength - (parts.length - 1);
  const share = Math.floor(available / shrinking.length);
  if (share < MIN_PART + HASH_LENGTH) throw new Error(`the name "${whole}" can't be shortened to ${MAX_IDENTIFIER} characters`);
  let spare = available % shrinking.length;
  const room = new Map<NamePart, number>();
  let short: NamePart[] = [];
  for (const p of shrinking) {
    if (p.name.length < share) {
      room.set(p, p.name.length);
      spare += share - p.name.length;
    } else {
      room.set(p, share);
      short.push(p);
    }
  }
  while (spare > 0 && short.length > 0) {
    short = short.filter((p) => {
      const r = room.get(p)!;
      if (r >= p.name.length || spare === 0) return false;
      room.set(p, r + 1);
      spare--;
      return r + 1 < p.name.length;
    });
  }
  return parts.map((p) => (p.fixed ? p.name : fit(p.name, room.get(p)!))).join('_');
}

/** A content-type or component table: its collectionName, shortened. */
export const tableName = (collectionName: string): string => identifier([{ name: collectionName }]);

/** An attribute's column: its name in lodash's snake_case, shortened. */
export const columnName = (attribute: string): string => identifier([{ name: snakeCase(attribute) }]);

/** The table of a type's components and zones: from the collectionName as written, not the shortened table. */
export const componentTableName = (collectionName: string): string => identifier([{ name: collectionName }, { name: 'cmps', fixed: true }]);

/**
 * A relation's link table: the (shortened) table and the attribute, each in lodash's snake_case as
 * Strapi writes them (`gadget-item` and `owner1` give `gadget_item_owner_1_lnk`), shortened.
 */
export const linkTableName = (table: string, attribute: string): string => identifier([{ name: snakeCase(table) }, { name: snakeCase(attribute) }, { name: 'lnk', fixed: true }]);

// the words lodash's snakeCase finds in an ASCII name: it also splits letters from digits, so
// `address1` is `address_1` and a shortened table `…affilcbab5` is `…affil_cbab_5` in a link table's name
const MIXED = /[a-z][A-Z]|[A-Z]{2}[a-z]|[0-9][a-zA-Z]|[a-zA-Z][0-9]|[^a-zA-Z0-9 ]/;
const WORDS = new RegExp(
  [
    '[A-Z]?[a-z]+(?=[^A-Za-z0-9]|[A-Z]|$)',
    '[A-Z]+(?=[^A-Za-z0-9]|[A-Z][a-z]|$)',
    '[A-Z]?[a-z]+',
    '[A-Z]+',
    '\\d*(?:1ST|2ND|3RD|(?![123])\\dTH)(?=\\b|[a-z_])',
    '\\d*(?:1st|2nd|3rd|(?![123])\\dth)(?=\\b|[A-Z_])',
    '\\d+',
  ].join('|'),
  'g',
);
const PLAIN_WORDS = /[^\x00-\x2f\x3a-\x40\x5b-\x60\x7b-\x7f]+/g; // eslint-disable-line no-control-regex

// Latin letters that carry no combining mark to strip, spelled as lodash's deburr spells them
const LATIN_LETTERS: Readonly<Record<string, string>> = {
  Æ: 'Ae',
  æ: 'ae',
  Ø: 'O',
  ø: 'o',
  ß: 'ss',
  Þ: 'Th',
  þ: 'th',
  Ð: 'D',
  ð: 'd',
  Đ: 'D',
  đ: 'd',
  Ħ: 'H',
  ħ: 'h',
  ı: 'i',
  Ĳ: 'IJ',
  ĳ: 'ij',
  ĸ: 'k',
  Ŀ: 'L',
  ŀ: 'l',
  Ł: 'L',
  ł: 'l',
  ŉ: "'n",
  Ŋ: 'N',
  ŋ: 'n',
  Œ: 'Oe',
  œ: 'oe',
  ſ: 's',
  Ŧ: 'T',
  ŧ: 't',
};
const LATIN = /[\xc0-\xd6\xd8-\xf6\xf8-\xff\u0100-\u017f]/g;
const COMBINING_MARKS = /[\u0300-\u036f\ufe20-\ufe2f\u20d0-\u20ff]/g;

/** Accented Latin letters as their base letters (`año` is `ano`), as lodash's case functions read a name first; other scripts keep theirs. */
function deburr(name: string): string {
  return name.replace(LATIN, (c) => LATIN_LETTERS[c] ?? c.normalize('NFD').replace(COMBINING_MARKS, '')).replace(COMBINING_MARKS, '');
}

// a name in another script after deburring: runs of letters and of digits (lodash splits no case change there)
const OTHER_SCRIPT_WORDS = /[\p{L}\p{M}]+|\p{N}+/gu;

/** lodash's snakeCase: Strapi names columns and link tables with it */
export function snakeCase(name: string): string {
  const plain = deburr(name);
  // eslint-disable-next-line no-control-regex
  const words = /[^\x00-\x7f]/.test(plain) ? plain.match(OTHER_SCRIPT_WORDS) : plain.match(MIXED.test(plain) ? WORDS : PLAIN_WORDS);
  return (words ?? []).map((w) => w.toLowerCase()).join('_');
}
