// What a file really is, decided from its bytes: magic numbers (file-type) for binary formats, a
// markup sniff for the text formats a browser would execute. The declared type and the file name
// never make a file "an image"; they only name text files that are harmless either way.

export interface DetectedType {
  readonly mime: string;
  /** canonical extension with its dot, e.g. `.png` */
  readonly ext: string;
}

/** Extension (lower case, with dot) → the type a browser would assume for it. */
const TYPE_OF_EXT: Readonly<Record<string, string>> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.jpe': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.tif': 'image/tiff',
  '.tiff': 'image/tiff',
  '.bmp': 'image/bmp',
  '.ico': 'image/x-icon',
  '.svg': 'image/svg+xml',
  '.svgz': 'image/svg+xml',
  '.heic': 'image/heic',
  '.mp4': 'video/mp4',
  '.m4v': 'video/x-m4v',
  '.webm': 'video/webm',
  '.ogv': 'video/ogg',
  '.mov': 'video/quicktime',
  '.mp3': 'audio/mpeg',
  '.m4a': 'audio/x-m4a',
  '.wav': 'audio/wav',
  '.ogg': 'audio/ogg',
  '.oga': 'audio/ogg',
  '.flac': 'audio/flac',
  '.aac': 'audio/aac',
  '.opus': 'audio/opus',
  '.pdf': 'application/pdf',
  '.zip': 'application/zip',
  '.gz': 'application/gzip',
  '.json': 'application/json',
  '.xml': 'application/xml',
  '.html': 'text/html',
  '.htm': 'text/html',
  '.xhtml': 'application/xhtml+xml',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.css': 'text/css',
  '.txt': 'text/plain',
  '.csv': 'text/csv',
  '.md': 'text/markdown',
  '.bin': 'application/octet-stream',
};

/** Types served inline (everything else is an attachment): media a browser renders without running it. */
const INLINE_TYPES: ReadonlySet<string> = new Set([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/avif',
  'video/mp4',
  'video/x-m4v',
  'video/webm',
  'video/ogg',
  'video/quicktime',
  'audio/mpeg',
  'audio/x-m4a',
  'audio/mp4',
  'audio/wav',
  'audio/ogg',
  'audio/flac',
  'audio/aac',
  'audio/opus',
  'application/pdf',
]);

const CANONICAL_EXT: Readonly<Record<string, string>> = {
  'text/html': '.html',
  'application/xhtml+xml': '.xhtml',
  'image/svg+xml': '.svg',
  'application/xml': '.xml',
  'text/plain': '.txt',
  'text/csv': '.csv',
  'text/markdown': '.md',
  'application/json': '.json',
  'text/css': '.css',
  'text/javascript': '.js',
  'application/octet-stream': '.bin',
};

/** Text types a client may name for a text file; anything else it claims for text becomes text/plain. */
const TEXT_TYPES: ReadonlySet<string> = new Set([
  'text/plain',
  'text/csv',
  'text/markdown',
  'text/tab-separated-values',
  'text/calendar',
  'text/vcard',
  'application/json',
  'application/ld+json',
  'application/geo+json',
  'application/x-yaml',
  'application/yaml',
  'text/yaml',
]);

// The WHATWG sniffing table's HTML openers, the tags browsers would treat as a page.
const HTML_OPENERS = ['<!doctype html', '<html', '<head', '<script', '<iframe', '<h1', '<div', '<font', '<table', '<a', '<style', '<title', '<b', '<body', '<br', '<p', '<!--'];

/** Inline-served types are exactly the ones confirmed by magic numbers; see storedExtension. */
export function typeOfExtension(ext: string): string | undefined {
  return TYPE_OF_EXT[ext.toLowerCase()];
}

export function isInlineType(mime: string): boolean {
  return INLINE_TYPES.has(mime);
}

function stripBom(s: string): string {
  return s.charCodeAt(0) === 0xfeff ? s.slice(1) : s;
}

function looksBinary(head: Buffer): boolean {
  for (const byte of head) {
    // NUL and the C0 controls that never occur in text
    if (byte === 0 || (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d && byte !== 0x0c && byte !== 0x1b)) return true;
  }
  return false;
}

/** Markup a browser would execute if it ever rendered this text, or null. */
function sniffMarkup(head: Buffer): string | null {
  const text = stripBom(head.toString('latin1')).trimStart().toLowerCase();
  if (text.includes('<svg')) return 'image/svg+xml';
  for (const opener of HTML_OPENERS) {
    if (!text.startsWith(opener)) continue;
    const next = text.charAt(opener.length);
    // the opener must end the tag name (`<b>` is HTML, `<bob` is not)
    if (opener === '<!--' || next === ' ' || next === '>' || next === '\t' || next === '\n' || next === '\r' || next === '/') return 'text/html';
  }
  if (text.startsWith('<?xml')) return text.includes('http://www.w3.org/1999/xhtml') ? 'application/xhtml+xml' : 'application/xml';
  return null;
}

/**
 * A type a file may keep on its sender's word: one no browser shows inline or runs (an office document,
 * a 3D model, a font, an archive). A claimed image, page, script or inline medium is not taken on trust.
 */
function isPassiveType(t: string): boolean {
  if (!/^(application|model|font|audio|video)\/[a-z0-9][\w.+-]*$/.test(t)) return false;
  // markup and data a page would read (`+xml`, `+json`), not a document format built on them (`…openxmlformats…`)
  return t !== 'application/octet-stream' && !isInlineType(t) && !TEXT_TYPES.has(t) && !/html|javascript|ecmascript|svg/.test(t) && !/[/+](xml|json)$/.test(t);
}

/** whether Folio serves files of that extension inline, or as something a browser runs */
function servedActively(ext: string): boolean {
  const served = ext ? typeOfExtension(ext) : undefined;
  return served !== undefined && (isInlineType(served) || /html|javascript|ecmascript|svg|xml|css/.test(served));
}

/**
 * Binary bytes no signature names (a binary STL, a format file-type doesn't know): the type they were
 * sent as, else the one mime-db gives their name's extension, as Strapi 5.54 takes it, when that type
 * is passive; otherwise none.
 */
async function claimedBinaryType(declared: string, clientExt: string): Promise<DetectedType | null> {
  const { default: mimeTypes } = await import('mime-types');
  const sent = declared.split(';')[0]!.trim().toLowerCase();
  const named = clientExt ? mimeTypes.lookup(clientExt) || '' : '';
  const mime = [sent, named].find(isPassiveType);
  if (mime === undefined) return null;
  const listed = mimeTypes.extension(mime);
  const ext = listed ? `.${listed}` : '.bin';
  // nor may it end up under an extension Folio serves inline or as markup (`audio/mp3` is listed as `.mp3`)
  if ([clientExt, ext].some(servedActively)) return null;
  return { mime, ext };
}

/**
 * The real type of a received file. `head` is its first bytes (up to a few KB), `declared` the
 * part's Content-Type, `clientExt` the extension of the name it was sent under.
 */
export async function detectType(filePath: string, head: Buffer, declared: string, clientExt: string): Promise<DetectedType> {
  // no bytes to read a type from (and none that could act as one): the type it was sent as, as Strapi keeps it
  if (head.length === 0) {
    const claimed = declared.split(';')[0]!.trim().toLowerCase();
    const mime = /^[a-z0-9][\w.+-]*\/[a-z0-9][\w.+-]*$/.test(claimed) ? claimed : 'application/octet-stream';
    return { mime, ext: CANONICAL_EXT[mime] ?? '.bin' };
  }
  // loaded on first use, not at start-up
  const { fileTypeFromFile } = await import('file-type');
  const magic = await fileTypeFromFile(filePath).catch(() => undefined);
  if (magic && magic.mime !== 'application/xml') return { mime: magic.mime, ext: `.${magic.ext}` };
  const markup = sniffMarkup(head);
  if (markup) return { mime: markup, ext: CANONICAL_EXT[markup] ?? '.bin' };
  if (magic) return { mime: magic.mime, ext: `.${magic.ext}` };
  if (looksBinary(head)) return (await claimedBinaryType(declared, clientExt)) ?? { mime: 'application/octet-stream', ext: '.bin' };
  const claimed = declared.split(';')[0]!.trim().toLowerCase();
  // a text file's name says which harmless text it is (`a.csv` sent as text/plain stays a CSV), as
  // Strapi 5.54 names a file's type from its extension; then the type it was sent as
  const named = typeOfExtension(clientExt);
  const mime = named !== undefined && TEXT_TYPES.has(named) ? named : TEXT_TYPES.has(claimed) ? claimed : 'text/plain';
  return { mime, ext: CANONICAL_EXT[mime] ?? '.txt' };
}

/**
 * The extension the stored object gets. The client's extension is kept when it names the detected
 * type, or when it names nothing known and the content isn't markup or inline media; otherwise the
 * detected type's own extension is used. So a stored `.png` is always a PNG, and HTML renamed
 * `.png` is stored as `.html` (and served as an attachment).
 */
export function storedExtension(clientExt: string, detected: DetectedType, listed: string | false = false): string {
  const ext = /^\.[A-Za-z0-9]{1,15}$/.test(clientExt) ? clientExt : '';
  // a name without one gets the type's first extension in mime-db (`listed`), as Strapi 5.54 names it (`.jpeg`,
  // `.tif`), where Folio serves that extension as the same type; else the detected type's own (`.mp3`, not `.mpga`)
  if (!ext) return listed !== false && typeOfExtension(`.${listed}`) === detected.mime ? `.${listed}` : detected.ext;
  const claimed = typeOfExtension(ext);
  if (claimed === detected.mime) return ext;
  const markup = detected.mime === 'text/html' || detected.mime === 'application/xhtml+xml' || detected.mime === 'image/svg+xml';
  if (claimed === undefined && !markup && !isInlineType(detected.mime)) return ext;
  return detected.ext;
}

function matches(mime: string, pattern: string): boolean {
  if (pattern === '*' || pattern === '*/*') return true;
  if (pattern.endsWith('/*')) return mime.startsWith(pattern.slice(0, -1));
  return mime === pattern;
}

/** null when the real type may be stored, else the refusal message. */
export function refusal(mime: string, allowed: readonly string[] | null, denied: readonly string[]): string | null {
  if (denied.some((p) => matches(mime, p))) return `File type '${mime}' is not allowed`;
  if (allowed !== null && !allowed.some((p) => matches(mime, p))) return `File type '${mime}' is not allowed`;
  return null;
}

/** The first extension mime-db lists for a type (mime-types, the version Strapi 5.54 uses), loaded on first use. */
export async function listedExtension(mime: string): Promise<string | false> {
  const { default: mimeTypes } = await import('mime-types');
  return mimeTypes.extension(mime);
}
