// Replacing a file's content (`POST /api/upload?id=` with one file), as Strapi does it: the new bytes
// are stored under the old objects' names, so the file's URL and its formats' URLs stay the ones
// pages already link to; the row takes the new name, type, size, dimensions and formats.
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type { Database } from '../../database/dialect.js';
import { writeTransaction } from '../../database/write-transaction.js';
import { scalarColumns } from '../../documents/store/rows.js';
import type { ContentType } from '../../schema/types.js';
import { kilobytes, readFile, type FileObject, type FormatEntry } from './file-row.js';
import type { StoredRef, UploadProvider } from './provider.js';
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
async function writeObjects(provider: UploadProvider, old: FileObject, f: PreparedFile): Promise<Written> {
  const hash = String(old['hash']);
  const ext = String(old['ext']);
  const sameProvider = old['provider'] === provider.name;
  const main = (sameProvider ? storedRefOf(old) : null) ?? { hash, ext, url: '', path: null };
  const previous = sameProvider ? oldFormats(old) : new Map<string, StoredRef>();
  // a format the old file lacked goes where its others were
  const path = [...previous.values()].find((r) => r.path)?.path ?? null;
  const content = { mime: f.mime, inline: f.inline };
  const url = await provider.overwrite(main, { ...content, file: f.source.path, size: f.source.size });
  // `{}` when there are none, as Strapi 5.54 answers a replaced file
  const formats: Record<string, FormatEntry> = {};
  for (const fmt of f.formats) {
    const ref = previous.get(fmt.key) ?? { hash: formatHash(fmt, hash), ext, url: '', path };
    const fmtUrl = await provider.overwrite(ref, { ...content, file: fmt.path, size: fmt.size });
    formats[fmt.key] = formatEntry(f, fmt, { hash, ext }, ref.path ?? null, fmtUrl);
    previous.delete(fmt.key);
  }
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

/**
 * Replaces file `id`'s content with `f` and returns the file as it now is, or null when there is no
 * such file. The row is locked while its objects are written, so two replacements of one file
 * can't mix their objects; the old formats the new content has none of are removed after the commit.
 */
export async function replaceFile(deps: ReplaceDeps, id: number, f: PreparedFile): Promise<FileObject | null> {
  const { database, fileType: type, provider } = deps;
  const result = await writeTransaction(database, async (tx) => {
    await tx
      .updateTable(type.table)
      .set({ id: sql.ref('id') })
      .where('id', '=', id)
      .execute();
    const old = await readFile(database, type, id, tx);
    if (!old) return null;
    const written = await writeObjects(provider, old, f);
    await tx
      .updateTable(type.table)
      .set({ ...scalarColumns(database.dialect, type, changes(f, written, provider)), updated_at: database.dialect.toDatetime(new Date()) })
      .where('id', '=', id)
      .execute();
    return { file: (await readFile(database, type, id, tx))!, stale: written.stale };
  });
  if (!result) return null;
  await Promise.all(
    result.stale.map((r) =>
      provider.remove(r).catch((e: unknown) => {
        deps.log.error({ err: e, url: r.url }, "upload: could not remove a replaced file's old format");
      }),
    ),
  );
  return result.file;
}
