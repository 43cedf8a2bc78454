// Rate limits of the auth routes (behaviour.md §10.1 "rate-limited", §10.9): Strapi's key
// `<identifier>:<normalised lower-cased path>:<ip>`, its X-RateLimit-* headers and its 429 body.
// @fastify/rate-limit runs the limiter; its store is the database (rate-limit-store.ts), so the limit
// holds across processes. Its own headers are off: Strapi's X-RateLimit-Reset is an epoch second,
// the library's a number of seconds left, so the hook below writes them from the limiter's answer.
import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { Database } from '../../database/dialect.js';
import type { ProxyTrust } from '../../config/proxy-config.js';
import { clientAddress } from '../../http/client-address.js';
import { RateLimitError } from '../../errors.js';
import { RateLimitCounters } from './rate-limit-store.js';

export interface RateLimitSettings {
  readonly enabled: boolean;
  /** window length, ms */
  readonly interval: number;
  /** requests per key and window; the next one is answered 429 */
  readonly max: number;
}

/** The contract's "Limits" table: 5 requests per 5 minutes (Strapi 5's plugin default is 10 per minute). */
export const DEFAULT_RATE_LIMIT: RateLimitSettings = { enabled: true, interval: 5 * 60_000, max: 5 };

const MESSAGE = 'Too many requests, please try again later.';

/** POST routes under the REST prefix that are limited, and whether their key carries `body.email` */
const POST_ROUTES: ReadonlyMap<string, boolean> = new Map([
  ['/auth/local', false],
  ['/auth/local/register', true],
  ['/auth/forgot-password', true],
  ['/auth/reset-password', false],
  ['/auth/send-email-confirmation', true],
  ['/auth/change-password', false],
]);

/** whether a route is limited, and if so whether its key carries `body.email`; `undefined` → not limited */
function limitedRoute(prefix: string, method: string, url: string): { byEmail: boolean } | undefined {
  if (!url.startsWith(`${prefix}/`)) return undefined;
  const path = url.slice(prefix.length);
  if (method === 'GET' && path.startsWith('/connect/')) return { byEmail: false };
  const byEmail = method === 'POST' ? POST_ROUTES.get(path) : undefined;
  return byEmail === undefined ? undefined : { byEmail };
}

/** Strapi's identifier: the lower-cased `body.email` on email-keyed routes, else `noIdentifier` */
function identifier(req: FastifyRequest, byEmail: boolean): string {
  if (!byEmail) return 'noIdentifier';
  const email = (req.body as Record<string, unknown> | null | undefined)?.['email'];
  if (email === undefined || email === null || email === '') return 'unknownIdentifier';
  return (typeof email === 'string' ? email : JSON.stringify(email)).toLowerCase();
}

/**
 * The request path as Strapi keys it (lower-cased, no trailing slash), built from the route that
 * matched and its decoded parameters rather than from the raw URL: the router decodes percent-escapes
 * and ignores case and a trailing slash, so `/api/auth/%6cocal` or `/api/auth/l%6Fcal` reach the login
 * route too, and keyed by their raw text each spelling would have had a window of its own.
 */
function keyPath(req: FastifyRequest): string {
  // the hook runs on limited routes only, so a route always matched
  const pattern = req.routeOptions.url ?? '';
  const params = (req.params ?? {}) as Record<string, unknown>;
  const path = pattern.replace(/:(\w+)|\*/g, (_m, name: string | undefined) => String(params[name ?? '*'] ?? ''));
  return path.toLowerCase().replace(/\/$/, '');
}

export const rateLimitKey = (req: FastifyRequest, byEmail: boolean, proxy: ProxyTrust | null): string => `${identifier(req, byEmail)}:${keyPath(req)}:${clientAddress(req, proxy)}`;

/**
 * Limits every route registered after this call that §10.1 marks rate-limited (those of other files,
 * such as /connect/*, included): a preHandler, so the body is parsed when the key is built.
 */
export function registerRateLimit(app: FastifyInstance, database: Database, prefix: string, settings: RateLimitSettings, proxy: ProxyTrust | null): void {
  if (!settings.enabled) return;
  const counters = new RateLimitCounters(database);
  // the library's store interface: incr answers the key's count and the time left in its window
  class DatabaseStore {
    incr(key: string, cb: (err: Error | null, res?: { current: number; ttl: number }) => void, timeWindow: number): void {
      const now = Date.now();
      counters.hit(key, timeWindow, now).then(
        (h) => cb(null, { current: h.hits, ttl: Math.max(0, h.resetAt - now) }),
        (e: Error) => cb(e),
      );
    }
    child(): DatabaseStore {
      return this;
    }
  }
  void app.register(fastifyRateLimit, {
    global: false,
    store: DatabaseStore,
    addHeaders: { 'x-ratelimit-limit': false, 'x-ratelimit-remaining': false, 'x-ratelimit-reset': false, 'retry-after': false },
    addHeadersOnExceeding: { 'x-ratelimit-limit': false, 'x-ratelimit-remaining': false, 'x-ratelimit-reset': false },
  });
  type Limiter = ReturnType<FastifyInstance['createRateLimit']>;
  const limiters = new Map<boolean, Limiter>();
  // created at the first request: the plugin's decorator exists once the server is ready
  const limiter = (byEmail: boolean): Limiter => {
    let l = limiters.get(byEmail);
    if (!l) {
      l = app.createRateLimit({ max: settings.max, timeWindow: settings.interval, keyGenerator: (req) => rateLimitKey(req, byEmail, proxy) });
      limiters.set(byEmail, l);
    }
    return l;
  };
  app.addHook('onRoute', (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const limited = methods.map((m) => limitedRoute(prefix, m, route.url)).find((x) => x !== undefined);
    if (!limited) return;
    const hook = async (req: FastifyRequest, reply: FastifyReply): Promise<void> => {
      const r = await limiter(limited.byEmail)(req);
      if (r.isAllowed) return;
      reply.header('X-RateLimit-Limit', r.max);
      reply.header('X-RateLimit-Remaining', r.remaining);
      reply.header('X-RateLimit-Reset', Math.ceil((Date.now() + r.ttl) / 1000));
      if (!r.isExceeded) return;
      reply.header('Retry-After', r.ttlInSeconds);
      throw new RateLimitError(MESSAGE);
    };
    const existing = route.preHandler;
    route.preHandler = existing === undefined ? [hook] : Array.isArray(existing) ? [hook, ...existing] : [hook, existing];
  });
}
