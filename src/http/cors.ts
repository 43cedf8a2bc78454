// CORS as Strapi's strapi::cors answers it, through @fastify/cors. A request from an origin the
// configuration doesn't allow gets no CORS headers at all (its preflight falls through to the 404/405
// handlers), as Strapi leaves it, and a request without an Origin header (a server, curl) gets none
// either: only browsers read them. Preflights are answered in the onRequest hook, before
// authentication, since a browser never sends credentials with a preflight.
import fastifyCors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import type { CorsConfig } from '../config/middlewares-config.js';

type OriginCallback = (err: Error | null, origin: string | boolean) => void;

/** what Access-Control-Allow-Origin says to a request from `origin`, or false for no CORS headers */
export function allowOrigin(config: CorsConfig, origin: string | undefined): string | false {
  if (origin === undefined || origin === '') return false;
  if (config.origin === '*') {
    // credentials are refused by browsers next to a literal '*': name the origin instead, as Strapi does
    return config.credentials ? origin : '*';
  }
  return config.origin.includes(origin) ? origin : false;
}

export async function registerCors(app: FastifyInstance, config: CorsConfig | null): Promise<void> {
  if (config === null) return;
  await app.register(fastifyCors, {
    origin: (origin: string | undefined, cb: OriginCallback) => cb(null, allowOrigin(config, origin)),
    methods: config.methods,
    ...(config.headers === null ? {} : { allowedHeaders: config.headers }),
    ...(config.expose === null ? {} : { exposedHeaders: config.expose }),
    ...(config.maxAge === null ? {} : { maxAge: config.maxAge }),
    credentials: config.credentials,
    // an OPTIONS from an allowed origin without Access-Control-Request-Method is answered like a
    // preflight (204) rather than with @fastify/cors's plain-text 400
    strictPreflight: false,
  });
}
