// File names are labels only: what is stored is always `<hash><ext>`, built here from a slug of
// the name and random bytes, so nothing a client sends can name a path.
import { randomBytes } from 'node:crypto';
import { posix } from 'node:path';
import slugify from '@sindresorhus/slugify';
import { ApplicationError } from '../../errors.js';

// control characters (NUL included): never part of a name a person typed
const CONTROL = /[\u0000-\u001f\u007f]/; // eslint-disable-line no-control-regex

/** The name as shown in the library: NFC, no control characters, at most 255 characters. */
export function checkedName(name: string): string {
  const n = name.normalize('NFC');
  if (CONTROL.test(n) || n === '.' || n === '..') throw new ApplicationError('File name contains invalid characters');
  // a label (fileInfo.name) may hold any other character: only its length is wrong (Strapi 5.54 answers 500)
  if (n.length > 255) throw new ApplicationError('File name must be at most 255 characters');
  return n;
}

// what Strapi 5.54 refuses in the name a file is sent under (not in fileInfo.name): characters no
// common file system takes, and the device names of Windows
const RESERVED = /[<>:"/\\|?*]/;
const WINDOWS_DEVICE = /^(con|prn|aux|nul|com\d|lpt\d)$/i;

/**
 * The name a file part was sent under, checked as Strapi 5.54 checks it: a client relying on its
 * "invalid characters" 400 (`a/b.txt`, `what?.txt`, `CON`) gets it here too. The parser keeps the path
 * the client sent, so `../x.txt` is refused rather than silently shortened.
 */
export function checkedSentName(name: string): string {
  if (RESERVED.test(name) || WINDOWS_DEVICE.test(name) || name.normalize('NFC').length > 255) throw new ApplicationError('File name contains invalid characters');
  return checkedName(name);
}

/**
 * `My Photo (1).PNG` → `My_Photo_1`, `Straße` → `Strasse`, `Привет` → `Privet`: the base name slugged
 * as Strapi 5.54 slugs it (the same library and options: letters transliterated, words and camel-case
 * humps joined by underscores, case kept; nothing left of `日本語` or an emoji), at most 64 characters.
 */
export function slug(base: string): string {
  return slugify(base, { separator: '_', lowercase: false }).slice(0, 64).replace(/_+$/, '');
}

/**
 * The stored object's base name: slug + `_` + 10 random hex digits. The slug is of the name's last
 * path segment less the extension the file was sent with, as Strapi 5.54 takes it
 * (`path.basename(name, ext)`): `../tmp/a.html` for a file sent as `x.svg` is `a_html_…`.
 */
export function fileHash(name: string, sentExt: string): string {
  return `${slug(posix.basename(name, sentExt))}_${randomBytes(5).toString('hex')}`;
}

/** The stored name of a file or a format: only `[A-Za-z0-9_.-]`, never a path. */
export function isSafeObjectName(name: string): boolean {
  return /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,200}$/.test(name) && !name.includes('..');
}
