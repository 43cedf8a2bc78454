// Rate limits of the auth routes (behaviour.md §10.1, §10.9): which routes, Strapi's key
// `<identifier>:<path>:<ip>`, the X-RateLimit-* headers, the 429 body, the window, `{enabled:false}`,
// a burst, and the config's errors. Counters live in the database (test/cli/rate-limit.test.ts
// checks them across processes).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Response } from '../support/app.js';
import { usersPermissionsConfig } from '../../src/plugins/users-permissions/config.js';
import { ConfigError } from '../../src/errors.js';
import { createUser, errorOf, expectError, login, post, startAuthApp, statuses, type AuthEnv } from './auth-support.js';

const TOO_MANY = errorOf(429, 'RateLimitError', 'Too many requests, please try again later.');

function expectHeaders(r: Response, limit: number, remaining: number, windowMs: number): void {
  expect(r.headers.get('x-ratelimit-limit')).toBe(String(limit));
  expect(r.headers.get('x-ratelimit-remaining')).toBe(String(remaining));
  // epoch seconds of the window's end (Strapi's koa2-ratelimit), not seconds left
  const reset = Number(r.headers.get('x-ratelimit-reset'));
  const now = Date.now() / 1000;
  expect(reset).toBeGreaterThan(now);
  expect(reset).toBeLessThanOrEqual(Math.ceil(now + windowMs / 1000) + 1);
}

describe('a limit of 3 per minute', () => {
  let env: AuthEnv;
  beforeAll(async () => {
    env = await startAuthApp({ plugin: { ratelimit: { interval: 60_000, max: 3 } } });
    await createUser(env.t, { username: 'alice', email: 'alice@example.com', confirmed: true });
  });
  afterAll(() => env.close());

  it('POST /api/auth/local: 3 answers with the headers, then the 429 body, for any identifier', async () => {
    for (let i = 0; i < 3; i++) {
      const r = await login(env.t, 'alice@example.com', 'wrong-password');
      expect(r.status).toBe(400);
      expectHeaders(r, 3, 2 - i, 60_000);
    }
    const r = await login(env.t, 'alice@example.com', 'wrong-password');
    expectError(r, TOO_MANY);
    expectHeaders(r, 3, 0, 60_000);
    // keyed without the identifier: another account, even the right password, is refused as well
    expectError(await login(env.t, 'alice@example.com', 'secret123'), TOO_MANY);
    expectError(await login(env.t, 'someone-else', 'x'), TOO_MANY);
  });

  it('each route counts apart: reset-password has its own key', async () => {
    for (let i = 0; i < 3; i++) {
      const r = await post(env.t, '/api/auth/reset-password', { code: 'nope', password: 'secret123', passwordConfirmation: 'secret123' });
      expect(r.status).toBe(400);
      expect(r.headers.get('x-ratelimit-remaining')).toBe(String(2 - i));
    }
    expectError(await post(env.t, '/api/auth/reset-password', { code: 'nope', password: 'secret123', passwordConfirmation: 'secret123' }), TOO_MANY);
  });

  it('forgot-password counts per lower-cased body.email', async () => {
    for (let i = 0; i < 3; i++) expect((await post(env.t, '/api/auth/forgot-password', { email: 'bob@example.com' })).status).toBe(200);
    expectError(await post(env.t, '/api/auth/forgot-password', { email: 'BOB@Example.com' }), TOO_MANY);
    const other = await post(env.t, '/api/auth/forgot-password', { email: 'carol@example.com' });
    expect(other.status).toBe(200);
    expectHeaders(other, 3, 2, 60_000);
  });

  it('register and send-email-confirmation count per email, "unknownIdentifier" without one', async () => {
    for (let i = 0; i < 3; i++) expect((await post(env.t, '/api/auth/local/register', { username: 'nobody' })).status).toBe(400);
    expectError(await post(env.t, '/api/auth/local/register', { username: 'nobody' }), TOO_MANY);
    expectError(await post(env.t, '/api/auth/local/register', { username: 'nobody', email: '' }), TOO_MANY);
    const r = await post(env.t, '/api/auth/local/register', { username: 'dave', email: 'dave@example.com', password: 'secret123' });
    expect(r.status).toBe(200);
    expectHeaders(r, 3, 2, 60_000);
    // the same address on another route is another key
    const s = await post(env.t, '/api/auth/send-email-confirmation', { email: 'dave@example.com' });
    expect(s.headers.get('x-ratelimit-remaining')).toBe('2');
    for (let i = 0; i < 2; i++) await post(env.t, '/api/auth/send-email-confirmation', { email: 'DAVE@example.com' });
    expectError(await post(env.t, '/api/auth/send-email-confirmation', { email: 'dave@example.com' }), TOO_MANY);
    // an email of any JSON type is a key too, never a 500
    for (const email of [12, { a: 1 }, ['x'], 'x\u0000y', 'é'.repeat(5000)]) {
      expect((await post(env.t, '/api/auth/send-email-confirmation', { email })).status).toBe(400);
    }
  });

  it('change-password is limited', async () => {
    const reg = await post(env.t, '/api/auth/local/register', { username: 'erin', email: 'erin@example.com', password: 'secret123' });
    const jwt = (reg.body as { jwt: string }).jwt;
    const body = { currentPassword: 'wrong-one', password: 'secret456', passwordConfirmation: 'secret456' };
    for (let i = 0; i < 3; i++) expect((await post(env.t, '/api/auth/change-password', body, jwt)).status).toBe(400);
    expectError(await post(env.t, '/api/auth/change-password', body, jwt), TOO_MANY);
  });

  it('GET /api/connect/* is limited, the provider callback the front end calls is not', async () => {
    // every answer counts, a disabled provider's 400 included
    for (let i = 0; i < 3; i++) {
      const r = await env.t.get('/api/connect/github', { token: null });
      expect(r.status).toBe(400);
      expectHeaders(r, 3, 2 - i, 60_000);
    }
    expectError(await env.t.get('/api/connect/github', { token: null }), TOO_MANY);
    for (let i = 0; i < 4; i++) {
      const r = await env.t.get('/api/auth/github/callback', { token: null });
      expect(r.status).toBe(400);
      expect(r.headers.get('x-ratelimit-limit')).toBeNull();
    }
  });

  it('routes §10.1 does not mark carry no headers and are never refused', async () => {
    for (let i = 0; i < 5; i++) {
      const r = await env.t.get('/api/auth/email-confirmation?confirmation=nope', { token: null });
      expect(r.status).toBe(400);
      expect(r.headers.get('x-ratelimit-limit')).toBeNull();
    }
    const a = await env.t.get('/api/articles');
    expect(a.status).toBe(200);
    expect(a.headers.get('x-ratelimit-limit')).toBeNull();
  });
});

describe('spellings of one path', () => {
  let env: AuthEnv;
  beforeAll(async () => {
    env = await startAuthApp({ plugin: { ratelimit: { interval: 60_000, max: 3 } } });
  });
  afterAll(() => env.close());

  // the router decodes percent-escapes, so each of these is the login route; keyed by the raw URL,
  // every spelling had a window of its own (a login brute force at 5 × the spellings per window)
  it('upper-case and trailing-slash spellings of the login path share its window; percent-escaped ones name no route (a POST there is 405), as in Strapi', async () => {
    const body = { identifier: 'nobody', password: 'wrong-password' };
    const paths = ['/api/auth/%6cocal', '/api/auth/l%6Fcal', '/API/AUTH/LOCAL/', '/api/auth/%6C%6F%63%61%6C', '/api/auth/local', '/Api/Auth/Local', '/api/auth/local'];
    const rs: Response[] = [];
    for (const path of paths) rs.push(await post(env.t, path, body));
    expect(rs.map((r) => r.status)).toEqual([405, 405, 400, 405, 400, 400, 429]);
  });

  it("a percent-escaped provider name shares the provider path's window", async () => {
    const rs: Response[] = [];
    for (const path of ['/api/connect/%67ithub', '/api/connect/github', '/api/connect/%67%69thub', '/api/connect/github']) rs.push(await env.t.get(path, { token: null }));
    expect(rs.map((r) => r.status)).toEqual([400, 400, 400, 429]);
  });
});

describe('behind a reverse proxy (config/server proxy.koa)', () => {
  const login = (env: AuthEnv, forwarded: string) =>
    env.t.request('POST', '/api/auth/local', { token: null, body: { identifier: 'nobody', password: 'wrong-password' }, headers: { 'x-forwarded-for': forwarded } });

  it('not trusted (the default): every client behind the proxy shares its window, whatever the header says', async () => {
    const env = await startAuthApp({ plugin: { ratelimit: { interval: 60_000, max: 2 } } });
    try {
      const rs = [await login(env, '203.0.113.1'), await login(env, '203.0.113.2'), await login(env, '203.0.113.3')];
      expect(rs.map((r) => r.status)).toEqual([400, 400, 429]);
    } finally {
      await env.close();
    }
  });

  it('trusted: each client the proxy names counts apart, and an address a client writes before it changes nothing', async () => {
    // no maxIpsCount: the last address, the one the proxy appended (Koa would take the client's first)
    const one = await startAuthApp({ plugin: { ratelimit: { interval: 60_000, max: 2 } }, proxy: { header: 'x-forwarded-for', maxIps: 0 } });
    try {
      const rs = [await login(one, 'spoof-1, 203.0.113.9'), await login(one, 'spoof-2, 203.0.113.9'), await login(one, 'spoof-3, 203.0.113.9'), await login(one, '203.0.113.8')];
      expect(rs.map((r) => r.status)).toEqual([400, 400, 429, 400]);
    } finally {
      await one.close();
    }
    // two proxies (maxIpsCount: 2): the address the outer one appended is the client
    const two = await startAuthApp({ plugin: { ratelimit: { interval: 60_000, max: 2 } }, proxy: { header: 'x-forwarded-for', maxIps: 2 } });
    try {
      const rs = [
        await login(two, 'spoof, 203.0.113.1, 10.0.0.1'),
        await login(two, '203.0.113.1, 10.0.0.1'),
        await login(two, 'x, 203.0.113.1, 10.0.0.1'),
        await login(two, '203.0.113.2, 10.0.0.1'),
      ];
      expect(rs.map((r) => r.status)).toEqual([400, 400, 429, 400]);
    } finally {
      await two.close();
    }
  });
});

describe('a burst', () => {
  let env: AuthEnv;
  beforeAll(async () => {
    env = await startAuthApp({ plugin: { ratelimit: { interval: 60_000, max: 5 } } });
  });
  afterAll(() => env.close());

  it('200 parallel logins from one address: exactly 5 answered, 195 refused with 429, never a 500', async () => {
    const rs = await Promise.all(Array.from({ length: 200 }, (_, i) => login(env.t, `burst${i}`, 'wrong-password')));
    expect(statuses(rs)).toEqual({ 400: 5, 429: 195 });
    for (const r of rs.filter((x) => x.status === 429)) expect(r.body).toEqual(TOO_MANY);
  });
});

// 3 s: each login spends a bcrypt compare before it answers, most of a second on a loaded CI machine,
// and the next request must still fall inside the window
describe('a window of 3 s', () => {
  let env: AuthEnv;
  beforeAll(async () => {
    env = await startAuthApp({ plugin: { ratelimit: { interval: 3000, max: 1 } } });
  });
  afterAll(() => env.close());

  it('the count starts again once the window has ended', async () => {
    const first = await login(env.t, 'nobody', 'wrong-password');
    expect(first.status).toBe(400);
    expectHeaders(first, 1, 0, 3000);
    expectError(await login(env.t, 'nobody', 'wrong-password'), TOO_MANY);
    const reset = Number(first.headers.get('x-ratelimit-reset'));
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, reset * 1000 - Date.now()) + 20));
    const again = await login(env.t, 'nobody', 'wrong-password');
    expect(again.status).toBe(400);
    expectHeaders(again, 1, 0, 3000);
    expectError(await login(env.t, 'nobody', 'wrong-password'), TOO_MANY);
  });
});

describe('{enabled: false}', () => {
  let env: AuthEnv;
  beforeAll(async () => {
    env = await startAuthApp({ plugin: { ratelimit: { enabled: false } } });
  });
  afterAll(() => env.close());

  it('no limit and no headers', async () => {
    const rs = await Promise.all(Array.from({ length: 12 }, () => login(env.t, 'nobody', 'wrong-password')));
    expect(statuses(rs)).toEqual({ 400: 12 });
    expect(rs[0]!.headers.get('x-ratelimit-limit')).toBeNull();
  });
});

describe('users-permissions.config.ratelimit', () => {
  const parse = (ratelimit: unknown) => usersPermissionsConfig({ 'users-permissions': { config: { ratelimit } } }).ratelimit;

  it("defaults to the contract's 5 requests per 5 minutes, enabled", () => {
    expect(usersPermissionsConfig({}).ratelimit).toEqual({ enabled: true, interval: 300_000, max: 5 });
    expect(parse({ max: 10 })).toEqual({ enabled: true, interval: 300_000, max: 10 });
  });

  it("takes Strapi's shapes: a number of ms, or koa2-ratelimit's units", () => {
    expect(parse({ interval: 60_000, max: 10 })).toEqual({ enabled: true, interval: 60_000, max: 10 });
    expect(parse({ interval: { min: 5 } })).toMatchObject({ interval: 300_000 });
    expect(parse({ interval: { min: 1, sec: 30 } })).toMatchObject({ interval: 90_000 });
    expect(parse({ enabled: false })).toMatchObject({ enabled: false });
  });

  it('refuses what it cannot mean with a ConfigError naming the setting', () => {
    const bad: Array<[unknown, RegExp]> = [
      ['5/min', /users-permissions\.config\.ratelimit must be an object/],
      [{ max: 0 }, /ratelimit\.max must be a whole number of requests, at least 1, got 0/],
      [{ max: '5' }, /ratelimit\.max must be a whole number/],
      [{ max: 2.5 }, /ratelimit\.max must be a whole number/],
      [{ interval: '1m' }, /ratelimit\.interval must be a number of ms or an object such as \{min: 5\}/],
      [{ interval: { minutes: 5 } }, /ratelimit\.interval must be a number of ms or an object of ms, sec, min, hour, day/],
      [{ interval: 0 }, /ratelimit\.interval must be at least 1 ms/],
      [{ enabled: 'no' }, /ratelimit\.enabled must be true or false/],
      [{ prefixKey: 'x' }, /ratelimit\.prefixKey is not a setting; known: enabled, interval, max/],
    ];
    for (const [value, message] of bad) {
      expect(() => parse(value)).toThrow(ConfigError);
      expect(() => parse(value)).toThrow(message);
    }
  });
});
