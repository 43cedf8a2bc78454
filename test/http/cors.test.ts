// CORS as Strapi's strapi::cors answers a browser: preflights and simple requests from allowed and
// refused origins, credentials, error responses, and the configuration read from config/middlewares.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load-config.js';
import { middlewaresConfig } from '../../src/config/middlewares-config.js';
import { ConfigError } from '../../src/errors.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { project, SECRETS } from '../config/helpers.js';

const SITE = 'http://localhost:3000';
const OTHER = 'https://evil.example';
const METHODS = 'GET,POST,PUT,PATCH,DELETE,HEAD,OPTIONS';
const HEADERS = 'Content-Type,Authorization,Origin,Accept';

function preflight(t: TestApp, origin: string, path = '/api/articles', method = 'POST'): Promise<Response> {
  return fetch(t.url + path, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': 'content-type,authorization' },
  });
}

const corsHeaders = (r: { headers: Headers }): Record<string, string> => Object.fromEntries([...r.headers.entries()].filter(([k]) => k.startsWith('access-control-')));

function appWith(entries: unknown[]): Promise<TestApp> {
  return startTestApp({ middlewares: middlewaresConfig(entries, []) });
}

describe('defaults (no config/middlewares): any origin, no credentials', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it("a preflight is answered 204 before authentication, with Strapi's methods, headers and max age", async () => {
    const r = await preflight(t, SITE);
    expect(r.status).toBe(204);
    expect(await r.text()).toBe('');
    expect(corsHeaders(r)).toEqual({
      'access-control-allow-origin': '*',
      'access-control-allow-methods': METHODS,
      'access-control-allow-headers': HEADERS,
      'access-control-max-age': '31536000',
    });
  });

  it('a GET from another origin may be read: Access-Control-Allow-Origin *, and no credentials', async () => {
    const r = await t.get('/api/articles', { headers: { origin: SITE } });
    expect(r.status).toBe(200);
    expect(r.headers.get('access-control-allow-origin')).toBe('*');
    expect(r.headers.get('access-control-allow-credentials')).toBeNull();
    // preflight-only headers stay off actual responses
    expect(r.headers.get('access-control-allow-methods')).toBeNull();
  });

  it('a request without Origin (a server, curl) gets no CORS headers', async () => {
    const r = await t.get('/api/articles');
    expect(r.status).toBe(200);
    expect(corsHeaders(r)).toEqual({});
  });

  it('error responses carry the headers, so the browser can read the error', async () => {
    const unauthorized = await t.get('/api/articles', { token: 'not-a-token', headers: { origin: SITE } });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get('access-control-allow-origin')).toBe('*');
    const notFound = await t.get('/api/nothing-here', { headers: { origin: SITE } });
    expect(notFound.status).toBe(404);
    expect(notFound.headers.get('access-control-allow-origin')).toBe('*');
    const bad = await t.get('/api/articles?sort=nope', { headers: { origin: SITE } });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('access-control-allow-origin')).toBe('*');
  });
});

describe('an origin list', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await appWith([{ name: 'strapi::cors', config: { origin: [SITE, 'https://site.example/'] } }]);
  });
  afterAll(async () => {
    await t.close();
  });

  it("a preflight from a listed origin names it, with credentials allowed (Strapi's default)", async () => {
    const r = await preflight(t, SITE, '/api/articles/abc', 'PUT');
    expect(r.status).toBe(204);
    expect(corsHeaders(r)).toEqual({
      'access-control-allow-origin': SITE,
      'access-control-allow-credentials': 'true',
      'access-control-allow-methods': METHODS,
      'access-control-allow-headers': HEADERS,
      'access-control-max-age': '31536000',
    });
    expect(r.headers.get('vary')).toMatch(/origin/i);
    // a listed origin written with a trailing slash still matches what browsers send
    expect((await preflight(t, 'https://site.example')).headers.get('access-control-allow-origin')).toBe('https://site.example');
  });

  it('a preflight from any other origin gets no CORS headers at all, so the browser refuses', async () => {
    const r = await preflight(t, OTHER);
    expect(r.status).not.toBe(204);
    expect(corsHeaders(r)).toEqual({});
    // near misses are other origins too
    for (const near of [`${SITE}/`, 'http://localhost:3001', 'https://localhost:3000', 'http://LOCALHOST:3000.evil.example']) {
      expect(corsHeaders(await preflight(t, near))).toEqual({});
    }
  });

  it('a GET names a listed origin and says Vary: Origin; another origin gets the body but no permission to read it', async () => {
    const ok = await t.get('/api/articles', { headers: { origin: SITE } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBe(SITE);
    expect(ok.headers.get('access-control-allow-credentials')).toBe('true');
    expect(ok.headers.get('vary')).toMatch(/origin/i);
    const refused = await t.get('/api/articles', { headers: { origin: OTHER } });
    expect(refused.status).toBe(200);
    expect(corsHeaders(refused)).toEqual({});
    expect(refused.headers.get('vary')).toMatch(/origin/i);
  });
});

describe('options', () => {
  it("credentials: true with origin * names the caller's origin (a literal * would be refused by browsers), as Strapi does", async () => {
    const t = await appWith([{ name: 'strapi::cors', config: { origin: '*', credentials: true } }]);
    try {
      const r = await preflight(t, OTHER);
      expect(r.status).toBe(204);
      expect(r.headers.get('access-control-allow-origin')).toBe(OTHER);
      expect(r.headers.get('access-control-allow-credentials')).toBe('true');
      const g = await t.get('/api/articles', { headers: { origin: SITE } });
      expect(g.headers.get('access-control-allow-origin')).toBe(SITE);
    } finally {
      await t.close();
    }
  });

  it('credentials: false with a list; methods, headers, expose and maxAge as strings; a comma-separated origin', async () => {
    const t = await appWith([
      {
        name: 'strapi::cors',
        config: {
          origin: `${SITE}, https://site.example`,
          credentials: false,
          methods: 'GET, HEAD',
          headers: ['Authorization', 'X-Trace'],
          expose: 'X-Total, X-Page',
          maxAge: '600',
          keepHeaderOnError: true,
        },
      },
    ]);
    try {
      const r = await preflight(t, 'https://site.example', '/api/articles', 'GET');
      expect(corsHeaders(r)).toEqual({
        'access-control-allow-origin': 'https://site.example',
        'access-control-allow-methods': 'GET,HEAD',
        'access-control-allow-headers': 'Authorization,X-Trace',
        'access-control-max-age': '600',
        'access-control-expose-headers': 'X-Total,X-Page',
      });
      const g = await t.get('/api/articles', { headers: { origin: SITE } });
      expect(corsHeaders(g)).toEqual({ 'access-control-allow-origin': SITE, 'access-control-expose-headers': 'X-Total,X-Page' });
    } finally {
      await t.close();
    }
  });

  it('a config/middlewares list without strapi::cors serves no CORS headers, as in Strapi', async () => {
    const t = await appWith(['strapi::errors', 'strapi::security', 'strapi::body']);
    try {
      expect(corsHeaders(await preflight(t, SITE))).toEqual({});
      expect(corsHeaders(await t.get('/api/articles', { headers: { origin: SITE } }))).toEqual({});
    } finally {
      await t.close();
    }
  });
});

describe('config/middlewares of a project', () => {
  it("is read from config/middlewares.js with Strapi's option names, config/env/<NODE_ENV> replacing the list", async () => {
    const dir = project({
      'config/middlewares.js': `module.exports = ({ env }) => ['strapi::logger', 'strapi::errors', 'strapi::security',
        { name: 'strapi::cors', config: { origin: env('CORS_ORIGINS', '${SITE}').split(','), headers: '*', maxAge: 60 } },
        'strapi::body'];`,
      'config/env/production/middlewares.js': `module.exports = [{ name: 'strapi::cors', config: { origin: ['https://prod.example'] } }];`,
    });
    const dev = (await loadConfig(dir, { ...SECRETS }, { writeEnvFile: false })).config;
    expect(dev.middlewares.cors).toEqual({ origin: [SITE], methods: METHODS, headers: '*', expose: null, maxAge: 60, credentials: true });
    const prod = (await loadConfig(dir, { ...SECRETS, NODE_ENV: 'production' }, { writeEnvFile: false })).config;
    expect(prod.middlewares.cors?.origin).toEqual(['https://prod.example']);
    // the production list leaves strapi::security out
    expect(prod.middlewares.security).toBeNull();

    const t = await startTestApp({ middlewares: dev.middlewares });
    try {
      const r = await preflight(t, SITE);
      expect(r.status).toBe(204);
      expect(r.headers.get('access-control-allow-origin')).toBe(SITE);
      expect(r.headers.get('access-control-allow-headers')).toBe('*');
      expect(r.headers.get('access-control-max-age')).toBe('60');
      expect(corsHeaders(await preflight(t, 'https://prod.example'))).toEqual({});
    } finally {
      await t.close();
    }
  });

  it('a project without config/middlewares gets the defaults', async () => {
    const { config } = await loadConfig(project(), { ...SECRETS }, { writeEnvFile: false });
    expect(config.middlewares.cors).toEqual({ origin: '*', methods: METHODS, headers: HEADERS, expose: null, maxAge: 31536000, credentials: false });
    expect(config.middlewares.security).not.toBeNull();
  });

  it("refuses what it can't honour with one line naming the option", async () => {
    const bad = async (files: Record<string, string>): Promise<string> => {
      const e: unknown = await loadConfig(project(files), { ...SECRETS }, { writeEnvFile: false }).then(
        () => null,
        (err: unknown) => err,
      );
      expect(e).toBeInstanceOf(ConfigError);
      return (e as Error).message;
    };
    expect(await bad({ 'config/middlewares.json': JSON.stringify([{ name: 'strapi::cors', config: { credentials: 'yes' } }]) })).toMatch(
      /strapi::cors credentials must be true or false/,
    );
    expect(await bad({ 'config/middlewares.json': JSON.stringify([{ name: 'strapi::cors', config: { maxAge: -1 } }]) })).toMatch(/strapi::cors maxAge/);
    expect(await bad({ 'config/middlewares.json': JSON.stringify({ cors: true }) })).toMatch(/config\/middlewares: expected a list/);
  });

  it('an origin function is called per request with what a Koa context gives it, and its answer read as Strapi reads it', async () => {
    // as PEPE2414/strapi-backend writes it: the request's origin when listed or a preview site, else ''
    const dir = project({
      'config/middlewares.ts': `export default [{ name: 'strapi::cors', config: {
        origin: async (ctx: any) => {
          const from = String(ctx.request.header.origin || '');
          if (ctx.get('X-Fail') === 'yes') throw new Error('no list today');
          if (ctx.request.path === '/api/tags') return ['${SITE}', 'https://tags.example'].join(',');
          if (/^https:\\/\\/[a-z0-9-]+\\.vercel\\.app$/.test(from)) return from;
          return new Set(['${SITE}']).has(from) ? from : '';
        },
        credentials: true,
      } }];`,
    });
    const { config } = await loadConfig(dir, { ...SECRETS }, { writeEnvFile: false });
    expect(typeof config.middlewares.cors?.origin).toBe('function');
    const t = await startTestApp({ middlewares: config.middlewares });
    try {
      const allowedTo = (r: Response | { headers: Headers }): Record<string, string> => corsHeaders(r);
      const p = await preflight(t, SITE);
      expect(p.status).toBe(204);
      expect(allowedTo(p)).toMatchObject({ 'access-control-allow-origin': SITE, 'access-control-allow-credentials': 'true' });
      expect(allowedTo(await t.get('/api/articles', { headers: { origin: 'https://pr-12.vercel.app' } }))).toEqual({
        'access-control-allow-origin': 'https://pr-12.vercel.app',
        'access-control-allow-credentials': 'true',
      });
      // '' allows nothing: no CORS headers, the preflight falls through as for any refused origin
      expect(allowedTo(await preflight(t, OTHER))).toEqual({});
      const plain = (await t.get('/api/articles')).status;
      const refused = await t.get('/api/articles', { headers: { origin: OTHER } });
      expect(refused.status).toBe(plain);
      expect(allowedTo(refused)).toEqual({});
      // a comma-separated answer is a list
      expect(allowedTo(await t.get('/api/tags', { headers: { origin: 'https://tags.example' } }))['access-control-allow-origin']).toBe('https://tags.example');
      // a function that throws allows nothing; the request itself is still answered
      const failed = await t.get('/api/articles', { headers: { origin: SITE, 'x-fail': 'yes' } });
      expect(failed.status).toBe(plain);
      expect(allowedTo(failed)).toEqual({});
    } finally {
      await t.close();
    }
  });

  it("warns about options strapi::cors doesn't have, and about `enabled` only when it would seem to turn CORS off (DesumovJP/restaraunt-OS writes enabled: true)", async () => {
    const warningsOf = async (config: Record<string, unknown>): Promise<readonly string[]> => {
      const dir = project({ 'config/middlewares.json': JSON.stringify([{ name: 'strapi::cors', config }]) });
      return (await loadConfig(dir, { ...SECRETS }, { writeEnvFile: false })).warnings;
    };
    expect(await warningsOf({ origins: [SITE], enabled: false })).toEqual([
      'Ignored middlewares strapi::cors origins: not an option of strapi::cors',
      'Ignored middlewares strapi::cors enabled: to serve no CORS headers, leave strapi::cors out of config/middlewares (as in Strapi)',
    ]);
    expect(await warningsOf({ origin: [SITE], enabled: true })).toEqual([]);
  });

  it('a regular expression in the origin list starts with a warning and matches no origin, as in Strapi 5.54 (amankumar-in/cfc-events)', async () => {
    const dir = project({ 'config/middlewares.js': `module.exports = [{ name: 'strapi::cors', config: { origin: ['${SITE}', /site-example$/] } }];` });
    const loaded = await loadConfig(dir, { ...SECRETS }, { writeEnvFile: false });
    expect(loaded.warnings).toEqual([
      'Ignored /site-example$/ in middlewares strapi::cors origin: a regular expression matches no origin in Strapi 5.54 (it compares origins as text), nor in Folio; list the origins themselves',
    ]);
    const t = await startTestApp({ middlewares: loaded.config.middlewares });
    try {
      expect(corsHeaders(await preflight(t, SITE))['access-control-allow-origin']).toBe(SITE);
      expect(corsHeaders(await preflight(t, 'https://shop.site-example'))['access-control-allow-origin']).toBeUndefined();
    } finally {
      await t.close();
    }
  });
});
