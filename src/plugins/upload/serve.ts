// GET /uploads/<name>: the local provider's files. Only names Folio generates are served, from the
// uploads folder alone; the type comes from the extension (which storedExtension keeps true to
// the bytes), and anything but plain media is an attachment with nosniff, so uploaded markup never
// renders in the site's origin.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { NotFoundError } from '../../errors.js';
import { errorBody } from '../../http/error-handler.js';
import { staticPathRefusal } from '../../http/static-path.js';
import { byteRange } from './byte-range.js';
import { isInlineType, typeOfExtension } from './mime.js';
import { isSafeObjectName } from './names.js';
import { LOCAL_URL_PREFIX } from './providers/local.js';

function requestedName(req: FastifyRequest): string | null {
  // the raw URL, not the router's params: the router matches case-insensitively, names are not
  const path = (req.raw.url ?? '').split('?')[0] ?? '';
  const at = path.toLowerCase().indexOf(LOCAL_URL_PREFIX);
  if (at !== 0) return null;
  let name: string;
  try {
    name = decodeURIComponent(path.slice(LOCAL_URL_PREFIX.length));
  } catch {
    return null;
  }
  return isSafeObjectName(name) ? name : null;
}

/** a header Node may give as a list (an unknown name sent twice) read as its first value */
const oneHeader = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v[0] : v);

export function registerStaticUploads(app: FastifyInstance, dir: string, cacheControl: string): void {
  const notFound = (req: FastifyRequest, reply: FastifyReply): FastifyReply => {
    const refused = staticPathRefusal(req.raw.url ?? '');
    if (refused) return reply.code(refused.error.status).send(refused);
    throw new NotFoundError('Not Found');
  };
  const serve = async (req: FastifyRequest, reply: FastifyReply) => {
    const name = requestedName(req);
    if (name === null) return notFound(req, reply);
    const file = join(dir, name);
    const info = await stat(file).catch(() => null);
    if (!info?.isFile()) return notFound(req, reply);
    const mime = typeOfExtension(extname(name)) ?? 'application/octet-stream';
    const range = byteRange(info.size, req.headers.range, oneHeader(req.headers['if-range']), info.mtime);
    reply.header('accept-ranges', 'bytes');
    if (range.kind === 'unsatisfiable') {
      reply.header('content-range', `bytes */${info.size}`);
      return reply.code(416).send(errorBody(416, 'RangeNotSatisfiableError', 'Range Not Satisfiable'));
    }
    reply.header('content-type', mime);
    reply.header('last-modified', info.mtime.toUTCString());
    reply.header('cache-control', cacheControl);
    reply.header('x-content-type-options', 'nosniff');
    if (!isInlineType(mime)) {
      reply.header('content-disposition', `attachment; filename="${name}"`);
      // should a client render it anyway, nothing in it may run or load
      reply.header('content-security-policy', "default-src 'none'; sandbox");
    }
    if (range.kind === 'part') {
      reply.code(206);
      reply.header('content-range', `bytes ${range.start}-${range.end}/${info.size}`);
      reply.header('content-length', range.end - range.start + 1);
      return reply.send(createReadStream(file, { start: range.start, end: range.end }));
    }
    reply.header('content-length', info.size);
    return reply.send(createReadStream(file));
  };
  app.get(`${LOCAL_URL_PREFIX}*`, serve);
}
