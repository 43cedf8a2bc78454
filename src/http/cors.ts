// CORS as Strapi's strapi::cors answers it, through @fastify/cors. A request from an origin the
// configuration doesn't allow gets no CORS headers at all (its preflight falls through to the 404/405
// handlers), as Strapi leaves it, and a request without an Origin header (a server, curl) gets none
// either: only browsers read them. Preflights are answered in the onRequest hook, before
// authentication, since a browser never sends credentials with a preflight.
import fastifyCors from '@fastify/cors';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { CorsConfig } from '../config/middlewares-config.js';
import { originsFromFunction, type OriginFunction } from './cors-origin-function.js';

type OriginCallback = (err: Error | null, origin: string | boolean) => void;

/** what Access-Control-Allow-Origin says to a request from `origin`, or false for no CORS headers */
function allowed(origins: '*' | readonly string[], credentials: boolean, origin: string | undefined): string | false {
  if (origin === undefined || origin === '') return false;
  if (origins === '*' || origins.includes('*')) {
    // credentials are refused by browsers next to a literal '*': name the origin instead, as Strapi does
    return credentials ? origin : '*';
  }
  return origins.includes(origin) ? origin : false;
}

/** the answer of the project's origin function for this request; a failing function allows nothing */
async function allowedByFunction(fn: OriginFunction, credentials: boolean, req: FastifyRequest): Promise<string | false> {
  const origin = req.headers.origin;
  if (origin === undefined || origin === '') return false;
  try {
    return allowed(await originsFromFunction(fn, req), credentials, origin);
  } catch (e) {
    // the browser reads nothing, and the operator hears of it
    console.error(`folio: the strapi::cors origin function failed: ${(e as Error).message}`);
    return false;
  }
}

export async function registerCors(app: FastifyInstance, config: CorsConfig | null): Promise<void> {
  if (config === null) return;
  const options = {
    methods: config.methods,
    ...(config.headers === null ? {} : { allowedHeaders: config.headers }),
    ...(config.expose === null ? {} : { exposedHeaders: config.expose }),
    ...(config.maxAge === null ? {} : { maxAge: config.maxAge }),
    credentials: config.credentials,
    // an OPTIONS from an allowed origin without Access-Control-Request-Method is answered like a
    // preflight (204) rather than with @fastify/cors's plain-text 400
    strictPreflight: false,
  };
  const fn = config.origin;
  if (typeof fn === 'function') {
    // the function needs the request, which only @fastify/cors's per-request options are given
    await app.register(fastifyCors, {
      delegator: (req: FastifyRequest, cb: (err: Error | null, o: Record<string, unknown>) => void) => {
        void allowedByFunction(fn, config.credentials, req).then((origin) => cb(null, { ...options, origin }));
      },
    });
    return;
  }
  await app.register(fastifyCors, { origin: (origin: string | undefined, cb: OriginCallback) => cb(null, allowed(fn, config.credentials, origin)), ...options });
}
