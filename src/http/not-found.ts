// Requests no route takes, answered as Strapi 5.54's Koa router answers them. Strapi serves its
// public folder from a GET route matching every path, so its router knows every path for GET and
// HEAD: a GET or HEAD that nothing else takes is the 404 envelope, OPTIONS is a 200 naming the
// methods the path takes, a method the router knows but the path doesn't take is a plain-text
// 405, and a method the router doesn't know is a plain-text 501. Both name the path's methods in
// `Allow`: HEAD and GET (that catch-all route), then those of the routes matching the path, in the
// order they were registered.
import type { FastifyInstance, FastifyReply } from 'fastify';
import { errorBody } from './error-handler.js';
import { staticPathRefusal } from './static-path.js';

/** The methods Koa's router knows; any other is `501 Not Implemented`. */
const ROUTER_METHODS: ReadonlySet<string> = new Set(['HEAD', 'OPTIONS', 'GET', 'PUT', 'PATCH', 'POST', 'DELETE']);

interface KnownRoute {
  readonly methods: readonly string[];
  /** the route's path, lower-cased, split at `/`: `:name` takes one segment, `*` the rest */
  readonly segments: readonly string[];
}

function segmentsOf(path: string): string[] {
  return path
    .toLowerCase()
    .split('/')
    .filter((s) => s !== '');
}

function matches(route: readonly string[], path: readonly string[]): boolean {
  for (let i = 0; i < route.length; i++) {
    const r = route[i]!;
    if (r === '*') return true;
    const p = path[i];
    if (p === undefined) return false;
    if (!r.startsWith(':') && r !== p) return false;
  }
  return route.length === path.length;
}

function plain(reply: FastifyReply, status: number, allow: string, body: string): FastifyReply {
  return reply.code(status).header('allow', allow).type('text/plain; charset=utf-8').send(body);
}

/** Before any route is added: it collects each route's path as the routes are registered. */
export function registerNotFound(app: FastifyInstance): void {
  const routes: KnownRoute[] = [];
  app.addHook('onRoute', (r) => {
    const methods = (Array.isArray(r.method) ? r.method : [r.method]).map((m) => m.toUpperCase());
    routes.push({ methods, segments: segmentsOf(r.url) });
  });
  const allowed = (url: string): string => {
    const path = segmentsOf(url.split('?')[0] ?? '');
    const methods = new Set(['HEAD', 'GET']);
    for (const r of routes) if (matches(r.segments, path)) for (const m of r.methods) if (m !== 'OPTIONS') methods.add(m);
    return [...methods].join(', ');
  };
  app.setNotFoundHandler((req, reply) => {
    const method = req.method.toUpperCase();
    if (method === 'GET' || method === 'HEAD') {
      const refused = staticPathRefusal(req.url);
      if (refused) return reply.code(refused.error.status).send(refused);
      return reply.code(404).send(errorBody(404, 'NotFoundError', 'Not Found', {}));
    }
    const allow = allowed(req.url);
    if (method === 'OPTIONS') return plain(reply, 200, allow, '');
    if (!ROUTER_METHODS.has(method)) return plain(reply, 501, allow, 'Not Implemented');
    return plain(reply, 405, allow, 'Method Not Allowed');
  });
}
