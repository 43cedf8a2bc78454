// Strapi's router matches a path as it was sent: `/api/%75sers` names no route there and is a 404,
// where Fastify's router decodes it first and served /api/users. A rule in front of Folio that refuses
// a path (a proxy blocking /api/users*) would be passed by the encoded form, so a route's fixed
// segments must arrive as written: one sent percent-encoded is an unknown path. Parameters (a
// documentId, a file name) are still decoded.
import type { FastifyInstance } from 'fastify';

export function registerEncodedRouteNames(fastify: FastifyInstance): void {
  // a callback hook: every request passes here, and an async one costs each a promise
  fastify.addHook('onRequest', (req, reply, done) => {
    const raw = req.raw.url ?? '';
    const pattern = req.routeOptions.url;
    if (raw.includes('%') && pattern !== undefined && encodedFixedSegment(raw.split('?', 1)[0]!, pattern)) {
      reply.callNotFound();
      return;
    }
    done();
  });
}

function encodedFixedSegment(path: string, pattern: string): boolean {
  const sent = path.split('/');
  const fixed = pattern.split('/');
  return fixed.some((segment, i) => !segment.startsWith(':') && !segment.startsWith('*') && (sent[i]?.includes('%') ?? false));
}
