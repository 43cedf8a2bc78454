// The errors @fastify/multipart and busboy raise while a form is read, as the API's errors: what the
// client sent wrong is a 400 or 413, never the 500 an unmapped parser error would be.
import { FolioError, PayloadTooLargeError, ValidationError } from '../errors.js';

interface MultipartError extends Error {
  code?: string;
}

/** `e` as the API error it stands for; anything that is not the request's fault is returned as it is. */
export function multipartError(e: unknown, maxFiles: number): unknown {
  if (e instanceof FolioError || !(e instanceof Error)) return e;
  switch ((e as MultipartError).code) {
    case 'FST_FILES_LIMIT':
      return new PayloadTooLargeError(`Too many files: at most ${maxFiles} per request`);
    case 'FST_REQ_FILE_TOO_LARGE':
      // a 413 the error handler answers as any body over its limit (Strapi's body: no details)
      return e;
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return new PayloadTooLargeError('Too many form fields');
    case 'FST_PROTO_VIOLATION':
      return new ValidationError('Invalid form field name');
    case 'FST_INVALID_JSON_FIELD_ERROR':
      return new ValidationError('A form field declared as JSON is not valid JSON');
    case 'FST_MP_PREMATURE_CLOSE':
      return new ValidationError('The request was closed before the upload was complete');
    default:
      // a file-system failure (disk full…) is the server's, not the request's
      if ('syscall' in e) return e;
      return new ValidationError(`Malformed multipart body: ${e.message}`);
  }
}
