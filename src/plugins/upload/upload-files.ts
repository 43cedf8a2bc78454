// The upload pipeline: every received file is checked (type, name, image validity) and its
// formats generated before anything is stored; then the objects are stored, then the rows (and
// links) are written in one transaction. A failure at any step leaves neither objects nor rows.
import { extname, join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { ApplicationError, ValidationError } from '../../errors.js';
import type { Database } from '../../database/dialect.js';
import type { Store } from '../../documents/store/rows.js';
import type { ContentType } from '../../schema/types.js';
import type { UploadConfig } from './config.js';
import type { FileInfo } from './file-info.js';
import { insertFile, kilobytes, type FormatEntry, type NewFile } from './file-row.js';
import type { Folder } from './folder.js';
import { generateFormats, inspectImage, isMeasuredImage, measureVector, optimizeImage, type Dimensions, type FormatFile } from './formats.js';
import { linkFiles, targetRows, type LinkTarget } from './link.js';
import { detectType, isInlineType, listedExtension, refusal, storedExtension, typeOfExtension } from './mime.js';
import type { ReceivedFile } from './multipart.js';
import { checkedName, checkedSentName, fileHash } from './names.js';
import type { ImageRunner } from './image-admission.js';
import type { StoredRef, UploadProvider } from './provider.js';
import { writeTransaction } from '../../database/write-transaction.js';

/** A received file, checked, with its formats generated: ready to store. */
export interface PreparedFile {
  /** what is stored: the upload, or its optimized copy */
  readonly source: ReceivedFile;
  readonly info: FileInfo;
  readonly name: string;
  readonly hash: string;
  readonly ext: string;
  readonly mime: string;
  readonly inline: boolean;
  readonly dimensions: Dimensions | null;
  readonly formats: readonly FormatFile[];
}

export interface UploadDeps {
  readonly config: UploadConfig;
  readonly provider: UploadProvider;
  readonly images: ImageRunner;
  readonly database: Database;
  readonly fileType: ContentType;
  readonly log: FastifyBaseLogger;
}

/** Checks one file and generates its formats into `dir`. */
export async function prepareFile(deps: UploadDeps, source: ReceivedFile, info: FileInfo, dir: string, n: number): Promise<PreparedFile> {
  const sent = checkedSentName(source.filename || 'file');
  // fileInfo.name renames the file; the name it was sent under must be acceptable all the same. An
  // empty name renames nothing (as in Strapi 5.54): a file listed under "" can't be told apart.
  const name = info.name ? checkedName(info.name) : sent;
  const clientExt = extname(source.filename);
  const detected = await detectType(source.path, source.head, source.declaredType, clientExt);
  const refused = refusal(detected.mime, deps.config.allowedTypes, deps.config.deniedTypes);
  if (refused) throw new ValidationError(refused);
  const ext = storedExtension(clientExt, detected, await listedExtension(detected.mime));
  // sent as a photo, but the bytes are no image of a kind Folio reads: a damaged or disguised file
  const claimsImage = isMeasuredImage(source.declaredType) || isMeasuredImage(typeOfExtension(clientExt) ?? '');
  if (claimsImage && !isMeasuredImage(detected.mime)) throw new ApplicationError('File is not a valid image');
  let dimensions: Dimensions | null;
  let formats: FormatFile[] = [];
  let stored = source;
  if (isMeasuredImage(detected.mime)) {
    const maxPixels = deps.config.maxImagePixels;
    dimensions = await inspectImage(deps.images, source.path, maxPixels);
    // the formats are made from what is stored, as in Strapi
    const optimized = await optimizeImage(deps.images, source.path, source.size, detected.mime, join(dir, `f${n}-optimized`), deps.config, maxPixels);
    if (optimized) {
      stored = { ...source, path: optimized.path, size: optimized.size };
      dimensions = { width: optimized.width, height: optimized.height };
    }
    formats = await generateFormats(deps.images, stored.path, detected.mime, dimensions, deps.config.breakpoints, dir, `f${n}`, maxPixels);
  } else dimensions = await measureVector(deps.images, detected.mime, source.path, deps.config.maxImagePixels);
  return {
    source: stored,
    info,
    name,
    // without an extension sent, Strapi 5.54 takes the one of the type (`.png` names nothing: `_<random>`)
    hash: fileHash(name, clientExt || ext),
    ext,
    mime: detected.mime,
    inline: isInlineType(detected.mime),
    dimensions,
    formats,
  };
}

interface Stored {
  readonly url: string;
  readonly formats: Readonly<Record<string, FormatEntry>> | null;
}

/** Undoes stores when a later step fails; removal errors are logged, never hide the first error. */
class StoredObjects {
  private readonly refs: StoredRef[] = [];
  constructor(
    private readonly provider: UploadProvider,
    private readonly log: FastifyBaseLogger,
  ) {}

  add(ref: StoredRef): void {
    this.refs.push(ref);
  }

  async removeAll(): Promise<void> {
    await Promise.all(
      this.refs.map((r) =>
        this.provider.remove(r).catch((e: unknown) => {
          this.log.error({ err: e, url: r.url }, 'upload: could not remove a stored object after a failed upload');
        }),
      ),
    );
  }
}

async function storeOne(deps: UploadDeps, f: PreparedFile, path: string | null, stored: StoredObjects): Promise<Stored> {
  const { provider } = deps;
  const objectName = `${f.hash}${f.ext}`;
  const url = await provider.put({ name: objectName, path, file: f.source.path, size: f.source.size, mime: f.mime, inline: f.inline });
  stored.add({ hash: f.hash, ext: f.ext, url, path });
  if (f.formats.length === 0) return { url, formats: null };
  const formats: Record<string, FormatEntry> = {};
  for (const fmt of f.formats) {
    const hash = formatHash(fmt, f.hash);
    const fmtUrl = await provider.put({ name: `${hash}${f.ext}`, path, file: fmt.path, size: fmt.size, mime: f.mime, inline: f.inline });
    stored.add({ hash, ext: f.ext, url: fmtUrl, path });
    formats[fmt.key] = formatEntry(f, fmt, { hash: f.hash, ext: f.ext }, path, fmtUrl);
  }
  return { url, formats };
}

/** a format's stored name, from the file's: `thumbnail_<hash>` */
export function formatHash(fmt: FormatFile, fileHash: string): string {
  return `${fmt.key}_${fileHash}`;
}

/** The `formats` entry of one generated format of `f`, stored under the file's `stored` hash and extension. */
export function formatEntry(f: PreparedFile, fmt: FormatFile, stored: { readonly hash: string; readonly ext: string }, path: string | null, url: string): FormatEntry {
  return {
    name: `${fmt.key}_${f.name}`,
    hash: formatHash(fmt, stored.hash),
    ext: stored.ext,
    mime: f.mime,
    path,
    width: fmt.width,
    height: fmt.height,
    size: kilobytes(fmt.size),
    sizeInBytes: fmt.size,
    url,
  };
}

function newFile(deps: UploadDeps, f: PreparedFile, s: Stored, folder: Folder): NewFile {
  return {
    name: f.name,
    alternativeText: f.info.alternativeText ?? null,
    caption: f.info.caption ?? null,
    focalPoint: f.info.focalPoint ?? null,
    width: f.dimensions?.width ?? null,
    height: f.dimensions?.height ?? null,
    formats: s.formats,
    hash: f.hash,
    ext: f.ext,
    mime: f.mime,
    size: kilobytes(f.source.size),
    url: s.url,
    previewUrl: null,
    provider: deps.provider.name,
    provider_metadata: null,
    folderPath: folder.path,
  };
}

/**
 * Stores the prepared files and writes their rows (and the link) in one transaction. Returns the
 * new row ids in file order.
 */
export async function storeFiles(deps: UploadDeps, files: readonly PreparedFile[], folder: Folder, link: LinkTarget | null, path: string | null): Promise<number[]> {
  const stored = new StoredObjects(deps.provider, deps.log);
  try {
    const results: Stored[] = [];
    for (const f of files) results.push(await storeOne(deps, f, path, stored));
    const now = new Date();
    // rerun whole when the database refused it for a passing reason (a deadlock): the objects are stored already
    return await writeTransaction(deps.database, async (tx) => {
      const s: Store = { tx, dialect: deps.database.dialect };
      const rows = link ? await targetRows(s, link) : [];
      const ids: number[] = [];
      for (const [i, f] of files.entries()) ids.push(await insertFile(s, deps.fileType, newFile(deps, f, results[i]!, folder), now));
      if (link) await linkFiles(s, link, rows, ids);
      return ids;
    });
  } catch (e) {
    await stored.removeAll();
    throw e;
  }
}
