// strapi::security's headers (helmet with Strapi's defaults) on every kind of response: JSON, errors,
// preflights, cached reads and uploaded files (which keep their own stricter policy), and their
// configuration through config/middlewares.
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { middlewaresConfig } from '../../src/config/middlewares-config.js';
import { ConfigError } from '../../src/errors.js';
import { registerSecurityHeaders } from '../../src/http/security-headers.js';
import { startTestApp, TEST_REST, type TestApp } from '../support/app.js';
import { testClient } from '../support/database.js';
import { fetchAll, filePart, png, startUploadApp, type UploadApp } from '../upload/helpers.js';

/** what a Strapi 5.54 response carries (checked on the reference), less its admin marketplace's image host */
const STRAPI_HEADERS = {
  'referrer-policy': 'no-referrer',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'SAMEORIGIN',
  'x-permitted-cross-domain-policies': 'none',
};
const STRAPI_CSP = {
  'connect-src': "'self' https:",
  'img-src': "'self' data: blob:",
  'media-src': "'self' data: blob:",
  'default-src': "'self'",
  'base-uri': "'self'",
  'font-src': "'self' https: data:",
  'form-action': "'self'",
  'frame-ancestors': "'self'",
  'object-src': "'none'",
  'script-src': "'self'",
  'script-src-attr': "'none'",
  'style-src': "'self' https: 'unsafe-inline'",
};
/** helmet headers Strapi turns off: cross-origin isolation would stop other sites using the API and media */
const ABSENT = ['x-xss-protection', 'cross-origin-embedder-policy', 'cross-origin-opener-policy', 'cross-origin-resource-policy', 'origin-agent-cluster', 'x-powered-by'];

function csp(headers: Headers): Record<string, string> {
  const value = headers.get('content-security-policy');
  if (value === null) return {};
  return Object.fromEntries(
    value
      .split(';')
      .map((d) => d.trim())
      .filter(Boolean)
      .map((d) => {
        const [name, ...sources] = d.split(/\s+/);
        return [name!, sources.join(' ')];
      }),
  );
}

function expectStrapiHeaders(headers: Headers): void {
  for (const [name, value] of Object.entries(STRAPI_HEADERS)) expect(headers.get(name), name).toBe(value);
  expect(csp(headers)).toEqual(STRAPI_CSP);
  for (const name of ABSENT) expect(headers.get(name), name).toBeNull();
}

describe('defaults', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ rest: { ...TEST_REST, responseCache: true } });
  });
  afterAll(async () => {
    await t.close();
  });

  it("a JSON response carries Strapi's headers, and so does the same response served from the cache", async () => {
    await t.request('POST', '/api/articles?status=published', { body: { data: { title: 'Cached' } } });
    const first = await t.get('/api/articles');
    expect(first.status).toBe(200);
    expectStrapiHeaders(first.headers);
    // PostgreSQL's change mark is the whole server's: a commit by a test file running alongside retires
    // the body, so the read is repeated until one is served from the cache (at most the mark's read)
    let reused = false;
    for (let i = 0; i < 50 && !reused; i++) {
      const before = t.statements();
      const again = await t.get('/api/articles');
      reused = t.statements() - before <= 1;
      expect(again.text).toBe(first.text);
      expectStrapiHeaders(again.headers);
    }
    // on PostgreSQL other sessions' commits may keep retiring it; the path is the same on every dialect
    if (testClient() !== 'postgres') expect(reused).toBe(true);
  });

  it('errors carry them: 400, 401, 403, 404, 405', async () => {
    const reader = await t.tokenOf('custom', ['api::category.category.find']);
    const responses = [
      await t.get('/api/articles?sort=nope'),
      await t.get('/api/articles', { token: 'not-a-token' }),
      await t.get('/api/articles', { token: reader }),
      await t.get('/api/nothing-here'),
      await t.request('PATCH', '/api/articles'),
    ];
    expect(responses.map((r) => r.status)).toEqual([400, 401, 403, 404, 405]);
    for (const r of responses) expectStrapiHeaders(r.headers);
  });

  it('a CORS preflight carries them', async () => {
    const r = await fetch(`${t.url}/api/articles`, { method: 'OPTIONS', headers: { origin: 'http://localhost:3000', 'access-control-request-method': 'GET' } });
    expect(r.status).toBe(204);
    expectStrapiHeaders(r.headers);
  });
});

describe('uploaded files', () => {
  let u: UploadApp;
  beforeAll(async () => {
    u = await startUploadApp();
  });
  afterAll(async () => {
    await u.close();
  });

  it('an image is served with the headers', async () => {
    const r = await u.upload([filePart(await png(8, 8), 'dot.png', 'image/png')]);
    expect(r.status).toBe(201);
    const file = await fetchAll(u.t.url + r.body[0].url);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/png');
    expectStrapiHeaders(file.headers);
  });

  it("an attachment keeps its own sandboxing policy in place of the API's, with the other headers", async () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>';
    const r = await u.upload([filePart(svg, 'logo.svg', 'image/svg+xml')]);
    expect(r.status).toBe(201);
    const file = await fetchAll(u.t.url + r.body[0].url);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-disposition')).toMatch(/^attachment/);
    expect(file.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    expect(file.headers.get('x-content-type-options')).toBe('nosniff');
    expect(file.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(file.headers.get('strict-transport-security')).toBe(STRAPI_HEADERS['strict-transport-security']);
  });

  it("a missing file's 404 carries them", async () => {
    const r = await fetchAll(`${u.t.url}/uploads/nothing_1234567890.png`);
    expect(r.status).toBe(404);
    expectStrapiHeaders(r.headers);
  });
});

describe('config/middlewares strapi::security', () => {
  const appWith = (entries: unknown[]): Promise<TestApp> => startTestApp({ middlewares: middlewaresConfig(entries, []) });

  it("merges the project's helmet options over Strapi's: a directive replaces its default, objects merge, false turns one off", async () => {
    const t = await appWith([
      {
        name: 'strapi::security',
        config: {
          contentSecurityPolicy: { directives: { 'img-src': ["'self'", 'https://cdn.example'], frameAncestors: ["'none'"] } },
          frameguard: false,
          hsts: { maxAge: 60 },
        },
      },
    ]);
    try {
      const r = await t.get('/api/articles');
      expect(csp(r.headers)).toEqual({ ...STRAPI_CSP, 'img-src': "'self' https://cdn.example", 'frame-ancestors': "'none'" });
      expect(r.headers.get('x-frame-options')).toBeNull();
      expect(r.headers.get('strict-transport-security')).toBe('max-age=60; includeSubDomains');
      expect(r.headers.get('referrer-policy')).toBe('no-referrer');
    } finally {
      await t.close();
    }
  });

  it("a keyword written bare ('self' without quotes, which Strapi's helmet 6 passed on) is sent quoted, with a start-up notice", async () => {
    const warnings: string[] = [];
    const middlewares = middlewaresConfig([{ name: 'strapi::security', config: { contentSecurityPolicy: { directives: { 'connect-src': ['self', 'https:'] } } } }], warnings);
    expect(warnings).toEqual([`config/middlewares strapi::security: "self" in connect-src is read as 'self' (a CSP keyword is written quoted)`]);
    const t = await startTestApp({ middlewares });
    try {
      expect(csp((await t.get('/api/articles')).headers)).toEqual({ ...STRAPI_CSP, 'connect-src': "'self' https:" });
    } finally {
      await t.close();
    }
  });

  it('a directive written true stops start-up naming it (Strapi 5.54 starts, then answers every request 500)', () => {
    // Backend-Strapi's middlewares: `upgradeInsecureRequests: isProduction ? true : null`
    const security = (value: unknown): unknown[] => [{ name: 'strapi::security', config: { contentSecurityPolicy: { directives: { upgradeInsecureRequests: value } } } }];
    expect(() => middlewaresConfig(security(true), [])).toThrow(
      new ConfigError(
        'config/middlewares strapi::security: contentSecurityPolicy.directives.upgradeInsecureRequests is true: write a list of sources ([] for a directive that takes none), or null to leave it out',
      ),
    );
    expect(() => middlewaresConfig(security({ a: 1 }), [])).toThrow(/directives\.upgradeInsecureRequests is \{"a":1\}/);
    expect(() => middlewaresConfig(security([]), [])).not.toThrow();
    expect(() => middlewaresConfig(security(null), [])).not.toThrow();
  });

  it('contentSecurityPolicy: false sends no policy', async () => {
    const t = await appWith([{ name: 'strapi::security', config: { contentSecurityPolicy: false } }]);
    try {
      const r = await t.get('/api/articles');
      expect(r.headers.get('content-security-policy')).toBeNull();
      expect(r.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    } finally {
      await t.close();
    }
  });

  it('a directive computed per request (a function) is computed per request', async () => {
    let n = 0;
    const t = await appWith([{ name: 'strapi::security', config: { contentSecurityPolicy: { directives: { 'script-src': ["'self'", () => `'nonce-n${++n}'`] } } } }]);
    try {
      const a = csp((await t.get('/api/articles')).headers)['script-src'];
      const b = csp((await t.get('/api/articles')).headers)['script-src'];
      expect(a).toMatch(/^'self' 'nonce-n\d+'$/);
      expect(b).not.toBe(a);
    } finally {
      await t.close();
    }
  });

  it('a list without strapi::security sends none of the headers', async () => {
    const t = await appWith(['strapi::cors', 'strapi::body']);
    try {
      const r = await t.get('/api/articles');
      expect(r.status).toBe(200);
      for (const name of [...Object.keys(STRAPI_HEADERS), 'content-security-policy']) expect(r.headers.get(name), name).toBeNull();
    } finally {
      await t.close();
    }
  });

  it('an option helmet refuses stops the start with a ConfigError naming strapi::security', async () => {
    const { security } = middlewaresConfig([{ name: 'strapi::security', config: { referrerPolicy: { policy: 'bogus' } } }], []);
    const app = Fastify();
    const e: unknown = await registerSecurityHeaders(app, security).then(
      () => null,
      (err: unknown) => err,
    );
    await app.close();
    expect(e).toBeInstanceOf(ConfigError);
    expect((e as Error).message).toMatch(/^config\/middlewares strapi::security: .*bogus/);
  });
});
