// The one place errors become HTTP responses (behaviour.md §2.2).
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { FolioError, ServiceUnavailableError } from '../errors.js';

export interface ErrorBody {
  data: null;
  error: { status: number; name: string; message: string; details?: Record<string, unknown> };
}

export function errorBody(status: number, name: string, message: string, details?: Record<string, unknown>): ErrorBody {
  return { data: null, error: details === undefined ? { status, name, message } : { status, name, message, details } };
}

function fromFramework(err: FastifyError): ErrorBody | null {
  switch (err.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return errorBody(413, 'PayloadTooLargeError', 'request entity too large');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return errorBody(400, 'SyntaxError', err.message);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return errorBody(415, 'UnsupportedMediaTypeError', err.message);
    default:
      if (err instanceof SyntaxError) return errorBody(400, 'SyntaxError', err.message);
      if (err.statusCode === 413) return errorBody(413, 'PayloadTooLargeError', 'request entity too large');
      return null;
  }
}

export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, req: FastifyRequest, reply: FastifyReply) => {
    if (err instanceof FolioError) {
      // a refused write is worth sending again soon: say when, as HTTP lets a 503 do
      if (err instanceof ServiceUnavailableError) reply.header('retry-after', '1');
      return reply.code(err.status).send(errorBody(err.status, err.name, err.message, err.details));
    }
    const mapped = fromFramework(err);
    if (mapped) return reply.code(mapped.error.status).send(mapped);
    req.log.error(err);
    return reply.code(500).send(errorBody(500, 'InternalServerError', 'Internal Server Error'));
  });
}
