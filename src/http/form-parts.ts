// The parts of a multipart request, for a handler that starts reading it after awaiting something
// else (a permission check, a temporary folder). The parser learns that the client went away from
// the request's 'close' event; a request that closed before it started listening would leave the
// parts unread forever, and the handler, with whatever it holds (an upload's temporary folder), with
// them. Such a request is refused at once instead.
import type { FastifyMultipartBaseOptions, Multipart } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { ValidationError } from '../errors.js';

export function formParts(req: FastifyRequest, options?: FastifyMultipartBaseOptions): AsyncIterableIterator<Multipart> {
  if (req.raw.destroyed && !req.raw.readableEnded) throw new ValidationError('The request was closed before the upload was complete');
  return req.parts(options);
}
