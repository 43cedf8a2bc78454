// GET /uploads/<name>: the local provider's files. Only names Folio generates are served, from the
// uploads folder alone; the type comes from the extension (which storedExtension keeps true to
// the bytes), and anything but plain media is an attachment with nosniff, so uploaded markup never
// renders in the site's origin.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { NotFoundError } from '../../errors.js';
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

export function registerStaticUploads(app: FastifyInstance, dir: string): void {
  const serve = async (req: FastifyRequest, reply: FastifyReply) => {
    const name = requestedName(req);
    if (name === null) throw new NotFoundError('Not Found');
    const file = join(dir, name);
    const info = await stat(file).catch(() => null);
    if (!info?.isFile()) throw new NotFoundError('Not Found');
    const mime = typeOfExtension(extname(name)) ?? 'application/octet-stream';
    reply.header('content-type', mime);
    reply.header('content-length', info.size);
    reply.header('last-modified', info.mtime.toUTCString());
    reply.header('x-content-type-options', 'nosniff');
    if (!isInlineType(mime)) {
      reply.header('content-disposition', `attachment; filename="${name}"`);
      // should a client render it anyway, nothing in it may run or load
      reply.header('content-security-policy', "default-src 'none'; sandbox");
    }
    return reply.send(createReadStream(file));
  };
  app.get(`${LOCAL_URL_PREFIX}*`, serve);
}
