// Replacing a file's content (`POST /api/upload?id=` with one file), as Strapi does it: the new bytes
// are stored under the old objects' names, so the file's URL and its formats' URLs stay the ones
// pages already link to; the row takes the new name, type, size, dimensions and formats.
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../database/dialect.js';
import { writeTransaction } from '../../database/write-transaction.js';
import { lockRows } from '../../documents/store/document-lock.js';
import { ValidationError } from '../../errors.js';
import { scalarColumns } from '../../documents/store/rows.js';
import type { ContentType } from '../../schema/types.js';
import { kilobytes, readFile, type FileObject, type FormatEntry } from './file-row.js';
import type { StoredRef, UploadProvider } from './provider.js';
import { isInlineType, storedExtension, typeOfExtension } from './mime.js';
import { storedRefOf } from './stored-refs.js';
import { formatEntry, formatHash, type PreparedFile } from './upload-files.js';

export interface ReplaceDeps {
  readonly database: Database;
  readonly fileType: ContentType;
  readonly provider: UploadProvider;
  readonly log: FastifyBaseLogger;
}

interface Written {
  readonly url: string;
  readonly formats: Record<string, FormatEntry>;
  /** the old file's formats the new content has no counterpart for */
  readonly stale: StoredRef[];
}

function oldFormats(file: FileObject): Map<string, StoredRef> {
  const out = new Map<string, StoredRef>();
  const formats = file['formats'];
  if (typeof formats !== 'object' || formats === null) return out;
  for (const [key, value] of Object.entries(formats)) {
    const ref = storedRefOf(value);
    if (ref) out.set(key, ref);
  }
  return out;
}

/**
 * Writes the new content over the old file's objects. A file another provider stored (the project
 * changed providers since) gets new objects under the same names in this one, as in Strapi.
 */
async function writeObjects(provider: UploadProvider, old: FileObject, f: PreparedFile, created: StoredRef[]): Promise<Written> {
  const hash = String(old['hash']);
  const ext = String(old['ext']);
  const sameProvider = old['provider'] === provider.name;
  const main = (sameProvider ? storedRefOf(old) : null) ?? { hash, ext, url: '', path: null };
  const previous = sameProvider ? oldFormats(old) : new Map<string, StoredRef>();
  // a format the old file lacked goes where the file is
  const path = sameProvider ? provider.folderOf(main) : null;
  const content = { mime: f.mime, inline: f.inline };
  // the formats first and the original last: should a write fail, the address pages link to still
  // serves the old file whole
  // `{}` when there are none, as Strapi 5.54 answers a replaced file
  const formats: Record<string, FormatEntry> = {};
  for (const fmt of f.formats) {
    const known = previous.get(fmt.key);
    const ref = known ?? { hash: formatHash(fmt, hash), ext, url: '', path };
    const fmtUrl = await provider.overwrite(ref, { ...content, file: fmt.path, size: fmt.size });
    if (!known) created.push({ ...ref, url: fmtUrl });
    formats[fmt.key] = formatEntry(f, fmt, { hash, ext }, ref.path ?? null, fmtUrl);
    previous.delete(fmt.key);
  }
  const url = await provider.overwrite(main, { ...content, file: f.source.path, size: f.source.size });
  return { url, formats, stale: [...previous.values()] };
}

function changes(f: PreparedFile, written: Written, provider: UploadProvider): Map<string, unknown> {
  const c = new Map<string, unknown>([
    ['name', f.name],
    ['width', f.dimensions?.width ?? null],
    ['height', f.dimensions?.height ?? null],
    ['formats', written.formats],
    ['mime', f.mime],
    ['size', kilobytes(f.source.size)],
    ['url', written.url],
    ['provider', provider.name],
    // a point chosen on the old picture means nothing on the new one (Strapi 5.54 clears it too)
    ['focalPoint', f.info.focalPoint ?? null],
  ]);
  // the texts fileInfo leaves out are kept (they describe what the file is for); null clears one
  if (f.info.alternativeText !== undefined) c.set('alternativeText', f.info.alternativeText);
  if (f.info.caption !== undefined) c.set('caption', f.info.caption);
  return c;
}

async function removeObjects(deps: ReplaceDeps, refs: readonly StoredRef[], what: string): Promise<void> {
  await Promise.all(
    refs.map((r) =>
      deps.provider.remove(r).catch((e: unknown) => {
        deps.log.error({ err: e, url: r.url }, `upload: could not remove ${what}`);
      }),
    ),
  );
}

/**
 * The new content may take the old file's address when that address is served as its type: the
 * extension names it, or names nothing served inline and it is no markup (as an upload's name is
 * checked), or both are pictures (a JPEG taking a .png address shows as one), sounds or videos.
 * Anything else would be served under a type it isn't.
 */
function refusal(old: FileObject, f: PreparedFile): string | null {
  const oldExt = String(old['ext']);
  if (storedExtension(oldExt, { mime: f.mime, ext: f.ext }) === oldExt) return null;
  const family = (mime: string | undefined): string | undefined => (mime && isMeasuredOrPlayable(mime) ? mime.split('/')[0] : undefined);
  const served = typeOfExtension(oldExt);
  if (family(served) !== undefined && family(served) === family(f.mime)) return null;
  return `The new file is ${f.mime}, which the file's address (…${oldExt}) is not served as: upload it as a new file`;
}

const isMeasuredOrPlayable = (mime: string): boolean => isInlineType(mime) && /^(image|audio|video)\//.test(mime);

/**
 * Replaces file `id`'s content with `f` and returns the file as it now is, or null when there is no
 * such file. The row is held while its objects are written, so two replacements of one file can't
 * mix their objects, and the old formats the new content has none of are removed before it is let go.
 */
export async function replaceFile(deps: ReplaceDeps, id: number, f: PreparedFile): Promise<FileObject | null> {
  const { database, fileType: type, provider } = deps;
  return writeTransaction(database, async (tx) => {
    await lockRows({ tx, dialect: database.dialect }, type.table, [id], 'writer');
    const old = await readFile(database, type, id, tx);
    if (!old) return null;
    const refused = refusal(old, f);
    if (refused) throw new ValidationError(refused);
    // objects made under names no row gives yet: removed again if this attempt fails, while the row is held
    const created: StoredRef[] = [];
    try {
      const written = await writeObjects(provider, old, f, created);
      await tx
        .updateTable(type.table)
        .set({ ...scalarColumns(database.dialect, type, changes(f, written, provider)), updated_at: database.dialect.toDatetime(new Date()) })
        .where('id', '=', id)
        .execute();
      await removeObjects(deps, written.stale, "a replaced file's old format");
    } catch (e) {
      await removeObjects(deps, created, 'a format of a replacement that failed');
      throw e;
    }
    return (await readFile(database, type, id, tx))!;
  });
}
