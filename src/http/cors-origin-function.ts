// A strapi::cors `origin` written as a function, as Strapi 5 calls it: with the request's Koa context,
// per request, awaiting its answer. Folio has no Koa context: the function gets a read-only stand-in
// with what such functions read (the request's headers, method, url, path, ip, `get(name)`).
import type { FastifyRequest } from 'fastify';

/** a function origin as the project wrote it */
export type OriginFunction = (ctx: unknown) => unknown;

interface RequestView {
  readonly method: string;
  readonly url: string;
  readonly path: string;
  readonly ip: string;
  readonly header: Readonly<Record<string, unknown>>;
  readonly headers: Readonly<Record<string, unknown>>;
  get(name: string): string;
}

function requestView(req: FastifyRequest): RequestView {
  const headers = Object.freeze({ ...req.headers });
  const get = (name: string): string => {
    const v = headers[name.toLowerCase()];
    return Array.isArray(v) ? v.join(',') : typeof v === 'string' ? v : '';
  };
  const q = req.url.indexOf('?');
  return Object.freeze({ method: req.method, url: req.url, path: q === -1 ? req.url : req.url.slice(0, q), ip: req.ip, header: headers, headers, get });
}

/** the stand-in context: Koa's `ctx` and `ctx.request` both answer these */
function contextOf(req: FastifyRequest): unknown {
  const view = requestView(req);
  return Object.freeze({ ...view, request: view });
}

/**
 * The origins the function allows for this request, read as Strapi reads its answer: a list, a
 * comma-separated string, or nothing (any origin).
 */
export async function originsFromFunction(fn: OriginFunction, req: FastifyRequest): Promise<readonly string[]> {
  const answer = await fn(contextOf(req));
  if (answer === undefined || answer === null) return ['*'];
  const items = Array.isArray(answer) ? answer.map(String) : String(answer).split(',');
  return items.map((s) => s.trim().replace(/\/+$/, '')).filter(Boolean);
}
