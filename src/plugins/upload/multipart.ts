// Reads a multipart upload in part order, streaming every file part to its own temp file while
// measuring it and keeping its first bytes for type detection. No file is ever held in memory.
import { createWriteStream } from 'node:fs';
import { unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform, Writable, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { PayloadTooLargeError } from '../../errors.js';
import { multipartError } from '../../http/multipart-error.js';
import { humanSize } from './config.js';
import { formParts } from '../../http/form-parts.js';

export const HEAD_BYTES = 4100;

/** the name of a file part sent without one, as Strapi 5.54 names it (its spelling) */
export const UNNAMED_FILE = 'unamed';

/**
 * A `files` part is a file when it names a file or says its type, as Strapi 5.54 reads a form: Node's
 * form-data sends a Buffer appended without a name as a nameless `application/octet-stream` part, and
 * a Blob may carry only its type. A part saying neither is a text field (busboy reads a missing type as
 * text/plain, so an explicit text/plain without a name is one too).
 */
const isPartAFile = (field: string | undefined, type: string | undefined, name: string | undefined): boolean =>
  name !== undefined || type === 'application/octet-stream' || (field === 'files' && type !== undefined && type !== 'text/plain');

export interface ReceivedFile {
  /** the file name the client sent (busboy already dropped any directory part) */
  readonly filename: string;
  readonly declaredType: string;
  /** temp file holding the bytes */
  readonly path: string;
  readonly size: number;
  /** the first HEAD_BYTES bytes */
  readonly head: Buffer;
}

export interface ReceivedForm {
  /** the `files` parts, in the order they were sent */
  readonly files: ReceivedFile[];
  /** every other field's values, in the order they were sent */
  readonly fields: ReadonlyMap<string, readonly string[]>;
}

export interface ReceiveLimits {
  readonly sizeLimit: number;
  readonly maxFiles: number;
}

/** Counts bytes and keeps the head of the stream passing through it. */
class Meter extends Transform {
  size = 0;
  private readonly chunks: Buffer[] = [];
  private kept = 0;

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.size += chunk.length;
    if (this.kept < HEAD_BYTES) {
      const part = chunk.subarray(0, HEAD_BYTES - this.kept);
      this.chunks.push(Buffer.from(part));
      this.kept += part.length;
    }
    done(null, chunk);
  }

  head(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

const discard = (): Writable => new Writable({ write: (_c, _e, cb) => cb() });

/** Reads the whole form into `dir`. A file over the size limit is a 413 once the body is drained. */
export async function receiveForm(req: FastifyRequest, dir: string, limits: ReceiveLimits): Promise<ReceivedForm> {
  const files: ReceivedFile[] = [];
  const fields = new Map<string, string[]>();
  let tooLarge: string | null = null;
  try {
    for await (const part of formParts(req, { isPartAFile })) {
      if (part.type === 'field') {
        if (part.valueTruncated || part.fieldnameTruncated) throw new PayloadTooLargeError(`Form field ${part.fieldname} is too large`);
        const list = fields.get(part.fieldname) ?? [];
        list.push(typeof part.value === 'string' ? part.value : JSON.stringify(part.value));
        fields.set(part.fieldname, list);
        continue;
      }
      if (part.fieldname !== 'files' || tooLarge !== null) {
        // still read to the end: the parts after it must be reached and the body drained
        await pipeline(part.file, discard());
        continue;
      }
      const path = join(dir, `part-${files.length}`);
      const meter = new Meter();
      await pipeline(part.file, meter, createWriteStream(path, { flags: 'wx' }));
      if (part.file.truncated) {
        tooLarge = part.filename || 'File';
        await unlink(path).catch(() => undefined);
        continue;
      }
      // an empty input of an HTML form sends a nameless, empty part: no file was chosen
      if (meter.size === 0 && part.filename === '') {
        await unlink(path).catch(() => undefined);
        continue;
      }
      // busboy gives no filename (not even "") to a part that names none
      const filename = (part.filename as string | undefined) ?? UNNAMED_FILE;
      files.push({ filename, declaredType: part.mimetype, path, size: meter.size, head: meter.head() });
    }
  } catch (e) {
    throw multipartError(e, limits.maxFiles);
  }
  if (tooLarge !== null) throw new PayloadTooLargeError(`${tooLarge} exceeds size limit of ${humanSize(limits.sizeLimit)}.`);
  return { files, fields };
}
