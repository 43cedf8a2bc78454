// A query string past qs's limits (query/parse/qs.ts) is refused before any route runs: the router
// parses it while it looks the route up, where a thrown error would end the process.
import type { FastifyInstance } from 'fastify';
import { refusedQuery } from '../query/parse/qs.js';

export function registerQueryLimitGuard(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (req, _reply, done) => {
    done(refusedQuery(req.query));
  });
}
