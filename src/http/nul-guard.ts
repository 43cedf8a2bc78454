// U+0000 can't be stored in PostgreSQL text and never names anything Folio holds: a URL carrying
// it (a documentId, a filter value, a locale) is refused before any route runs, on every dialect.
import type { FastifyInstance } from 'fastify';
import { ValidationError } from '../errors.js';

const ENCODED_NUL = /%00/i;

export function registerNulGuard(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (req, _reply, done) => {
    done(ENCODED_NUL.test(req.url) ? new ValidationError('Invalid URL: U+0000 (%00) is not allowed') : undefined);
  });
}
