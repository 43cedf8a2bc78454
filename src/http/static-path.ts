// A GET or HEAD that no route takes reaches Strapi's static serving of its public folder (uploads
// included), which looks at the path as a file name before looking for the file: one that names an
// absolute path (`//api/articles`, `/C:/x`, `/%5c%5cserver`) is `400 Malicious Path`, one that
// climbs above the folder (`/..`, `/a/..%2f..%2fb`, `/uploads/..%5cx`) is `403 Forbidden`, each
// without `details`. Folio answers those paths the same way; anything else stays a 404.
import { posix, win32 } from 'node:path';
import { errorBody, type ErrorBody } from './error-handler.js';

// a `..` segment, with either slash as separator (a backslash is a name character on POSIX, but the check reads both)
const CLIMBS = /(?:^|[\\/])\.\.(?:[\\/]|$)/;

/** The refusal Strapi's static serving gives the request URL `url` (raw, as sent), or null. */
export function staticPathRefusal(url: string): ErrorBody | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(url.split('?')[0] ?? '');
  } catch {
    return null;
  }
  const name = decoded.startsWith('/') ? decoded.slice(1) : decoded;
  if (posix.isAbsolute(name) || win32.isAbsolute(name)) return errorBody(400, 'BadRequestError', 'Malicious Path');
  if (CLIMBS.test(posix.normalize(`./${name}`))) return errorBody(403, 'ForbiddenError', 'Forbidden');
  return null;
}
