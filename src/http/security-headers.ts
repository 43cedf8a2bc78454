// strapi::security's response headers (Content-Security-Policy, HSTS, X-Frame-Options, ...) through
// @fastify/helmet. The plugin builds helmet's middleware again on every request (≈10 µs here, a
// large share of a cached read); a configuration without functions yields the same headers every
// time, so the plugin computes them once at start, on a probe server, and every response gets them
// from that table. A configuration holding a function (a CSP value per request) keeps the plugin on
// every request. Routes may still override one (file responses set their own CSP and nosniff).
import fastifyHelmet from '@fastify/helmet';
import Fastify, { type FastifyInstance } from 'fastify';
import type { SecurityConfig } from '../config/middlewares-config.js';
import { ConfigError } from '../errors.js';

function holdsFunction(v: unknown): boolean {
  if (typeof v === 'function') return true;
  if (Array.isArray(v)) return v.some(holdsFunction);
  return typeof v === 'object' && v !== null && Object.values(v).some(holdsFunction);
}

/** the headers helmet adds to a response under `config`, lower-cased names */
export async function helmetHeaders(config: SecurityConfig): Promise<Record<string, string>> {
  const probe = Fastify({ logger: false });
  try {
    probe.get('/plain', (_req, reply) => reply.send(''));
    await probe.register(async (scope) => {
      await scope.register(fastifyHelmet, config);
      scope.get('/helmet', (_req, reply) => reply.send(''));
    });
    const [plain, helmet] = await Promise.all([probe.inject('/plain'), probe.inject('/helmet')]);
    // the plugin builds helmet in its request hook, so helmet's refusal of an option arrives as a 500
    if (helmet.statusCode !== 200) throw new Error(helmet.json<{ message?: string }>().message ?? helmet.body);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(helmet.headers)) {
      if (plain.headers[name] === undefined && typeof value === 'string') headers[name] = value;
    }
    return headers;
  } finally {
    await probe.close();
  }
}

/** Adds the headers to every response; returns them when they are the same for every response (else none). */
export async function registerSecurityHeaders(app: FastifyInstance, config: SecurityConfig | null): Promise<Readonly<Record<string, string>>> {
  if (config === null) return {};
  if (holdsFunction(config)) {
    await app.register(fastifyHelmet, config);
    return {};
  }
  let headers: Record<string, string>;
  try {
    headers = await helmetHeaders(config);
  } catch (e) {
    throw new ConfigError(`config/middlewares strapi::security: ${(e as Error).message}`);
  }
  app.addHook('onRequest', (_req, reply, done) => {
    reply.headers(headers);
    done();
  });
  return headers;
}
