// Refresh mode (`jwtManagement: 'refresh'`, contract "Session states", behaviour.md §10.5): sessions,
// rotation (a rotated token presented again revokes its family), idle and absolute expiry, logout
// revoking every session, the sessions routes, the cookie variant, and every bad token a 4xx.
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  decodeJwt,
  errorOf,
  expectError,
  expectNoSecrets,
  expectPublicUser,
  JWT_SECRET,
  linkIn,
  post,
  startAuthApp,
  validationOf,
  fieldErr,
  type AuthEnv,
} from './auth-support.js';
import { startTestApp, type Response, type TestApp } from '../support/app.js';
import { usersPermissionsConfig } from '../../src/plugins/users-permissions/config.js';

const REFRESH = '/api/auth/refresh';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const LOGOUT = '/api/auth/logout';
const SESSIONS = '/api/auth/sessions';
const MISSING = errorOf(400, 'BadRequestError', 'Missing refresh token');
const INVALID = errorOf(401, 'UnauthorizedError', 'Invalid refresh token');
const NO_CREDENTIALS = errorOf(401, 'UnauthorizedError', 'Missing or invalid credentials');
const SESSION_ID = /^[0-9a-f]{32}$/;

let env: AuthEnv;
let t: TestApp;
let n = 0;

beforeAll(async () => {
  env = await startAuthApp({ plugin: { jwtManagement: 'refresh' } });
  t = env.t;
});
afterAll(async () => {
  await env?.close();
});

interface Tokens {
  id: number;
  email: string;
  jwt: string;
  refreshToken: string;
}

async function signUp(app: TestApp = t, extra: Record<string, unknown> = {}): Promise<Tokens> {
  const name = `rf${++n}`;
  const r = await post(app, '/api/auth/local/register', { username: name, email: `${name}@example.com`, password: 'secret123', ...extra });
  expect(r.status, r.text).toBe(200);
  return { id: r.body.user.id as number, email: `${name}@example.com`, jwt: r.body.jwt as string, refreshToken: r.body.refreshToken as string };
}

async function signIn(email: string, extra: Record<string, unknown> = {}, app: TestApp = t): Promise<Tokens> {
  const r = await post(app, '/api/auth/local', { identifier: email, password: 'secret123', ...extra });
  expect(r.status, r.text).toBe(200);
  return { id: r.body.user.id as number, email, jwt: r.body.jwt as string, refreshToken: r.body.refreshToken as string };
}

const refresh = (refreshToken: unknown, app: TestApp = t): Promise<Response> => post(app, REFRESH, { refreshToken });
const me = (jwt: string, app: TestApp = t): Promise<Response> => app.get('/api/users/me', { token: jwt });

describe('login and registration open a session', () => {
  it('register and login answer {jwt, refreshToken, user} with the access and refresh payloads of §10.5', async () => {
    const name = `rf${++n}`;
    const reg = await post(t, '/api/auth/local/register', { username: name, email: `${name}@example.com`, password: 'secret123' });
    expect(reg.status, reg.text).toBe(200);
    expect(Object.keys(reg.body).sort()).toEqual(['jwt', 'refreshToken', 'user']);
    expectPublicUser(reg.body.user, { username: name });
    expectNoSecrets(reg);
    const log = await post(t, '/api/auth/local', { identifier: name, password: 'secret123' });
    expect(Object.keys(log.body).sort()).toEqual(['jwt', 'refreshToken', 'user']);
    const now = Math.floor(Date.now() / 1000);
    for (const body of [reg.body, log.body]) {
      const access = decodeJwt(body.jwt).payload;
      expect(Object.keys(access).sort()).toEqual(['exp', 'iat', 'sessionId', 'type', 'userId']);
      expect(access).toMatchObject({ userId: String(reg.body.user.id), type: 'access' });
      expect(access['sessionId']).toMatch(SESSION_ID);
      expect(Number(access['exp']) - Number(access['iat'])).toBe(600);
      const rt = decodeJwt(body.refreshToken).payload;
      expect(Object.keys(rt).sort()).toEqual(['exp', 'sessionId', 'type', 'userId']);
      expect(rt).toMatchObject({ userId: String(reg.body.user.id), type: 'refresh', sessionId: access['sessionId'] });
      expect(Math.abs(Number(rt['exp']) - (now + 14 * 86400))).toBeLessThan(5);
    }
    expect(decodeJwt(reg.body.jwt).payload['sessionId']).not.toBe(decodeJwt(log.body.jwt).payload['sessionId']);
    expect((await me(log.body.jwt)).status).toBe(200);
  });

  it('a legacy {id} JWT, a refresh token and a forged access token are not credentials in refresh mode', async () => {
    const a = await signUp();
    const key = new TextEncoder().encode(JWT_SECRET);
    const legacy = await new SignJWT({ id: a.id }).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setIssuedAt().setExpirationTime('1h').sign(key);
    expectError(await me(legacy), NO_CREDENTIALS);
    expectError(await me(a.refreshToken), NO_CREDENTIALS);
    const { sessionId } = decodeJwt(a.jwt).payload;
    const forged = await new SignJWT({ userId: String(a.id), sessionId, type: 'access' })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('other'));
    expectError(await me(forged), NO_CREDENTIALS);
    // a validly signed access token naming no session
    const ghost = await new SignJWT({ userId: String(a.id), sessionId: 'f'.repeat(32), type: 'access' })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(key);
    expectError(await me(ghost), NO_CREDENTIALS);
    expect((await me(a.jwt)).status).toBe(200);
  });

  it('deviceId tags the session; anything but a non-empty string is no device id, as Strapi reads it', async () => {
    const a = await signUp(t, { deviceId: 'phone' });
    const list = await t.get(SESSIONS, { token: a.jwt });
    expect(list.body.data).toEqual([
      { id: decodeJwt(a.jwt).payload['sessionId'], deviceId: 'phone', current: true, loginAt: expect.any(String), lastActiveAt: expect.any(String) },
    ]);
    for (const deviceId of [42, ['x'], { a: 1 }, '', null]) {
      const login = await post(t, '/api/auth/local', { identifier: a.email, password: 'secret123', deviceId });
      expect(login.status, login.text).toBe(200);
      const mine = (await t.get(SESSIONS, { token: login.body.jwt })).body.data.find((s: { current: boolean }) => s.current);
      // a login without one has none (Strapi 5.54: null)
      expect(mine.deviceId, JSON.stringify(deviceId)).toBeNull();
    }
    // a registration without one gets a random one, as Strapi's
    const b = await signUp(t, { deviceId: 42 });
    const [session] = (await t.get(SESSIONS, { token: b.jwt })).body.data;
    expect(session.deviceId).toMatch(UUID);
    const long = await post(t, '/api/auth/local', { identifier: a.email, password: 'secret123', deviceId: 'd'.repeat(256) });
    expectError(long, validationOf(fieldErr(['deviceId'], 'deviceId must be at most 255 characters', 'd'.repeat(256))));
    const nul = await post(t, '/api/auth/local', { identifier: a.email, password: 'secret123', deviceId: 'a\u0000b' });
    expectError(nul, validationOf(fieldErr(['deviceId'], 'deviceId must not contain U+0000', 'a\u0000b')));
  });
});

describe('POST /auth/refresh', () => {
  it('no token is 400 Missing refresh token; bad, forged and foreign tokens are 401 Invalid refresh token', async () => {
    expectError(await post(t, REFRESH, {}), MISSING);
    expectError(await t.request('POST', REFRESH, { token: null }), MISSING);
    expectError(await refresh(''), MISSING);
    expectError(await refresh(12), MISSING);
    const a = await signUp();
    const b = await signUp();
    const key = new TextEncoder().encode(JWT_SECRET);
    const aSession = decodeJwt(a.refreshToken).payload['sessionId'];
    const sign = (payload: Record<string, unknown>, k = key) => new SignJWT(payload).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('1h').sign(k);
    for (const bad of [
      'garbage',
      'a.b.c',
      a.jwt, // an access token
      await sign({ userId: String(a.id), sessionId: aSession, type: 'refresh' }, new TextEncoder().encode('not-the-secret')),
      await sign({ userId: String(b.id), sessionId: aSession, type: 'refresh' }), // another user's session
      await sign({ userId: String(a.id), sessionId: 'e'.repeat(32), type: 'refresh' }), // no such session
      await sign({ userId: String(a.id), sessionId: "' OR 1=1 --", type: 'refresh' }),
      await new SignJWT({ userId: String(a.id), sessionId: aSession, type: 'refresh' })
        .setProtectedHeader({ alg: 'HS256' })
        .setExpirationTime(Math.floor(Date.now() / 1000) - 10)
        .sign(key),
      'x'.repeat(10_000),
    ]) {
      expectError(await refresh(bad), INVALID);
    }
    // none of that touched the real sessions
    expect((await refresh(a.refreshToken)).status).toBe(200);
    expect((await refresh(b.refreshToken)).status).toBe(200);
  });

  it('rotates: {jwt, refreshToken} of a new session; the old refresh token is refused afterwards', async () => {
    const a = await signUp();
    const r = await refresh(a.refreshToken);
    expect(r.status, r.text).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(['jwt', 'refreshToken']);
    const next = decodeJwt(r.body.refreshToken).payload;
    expect(next['sessionId']).toMatch(SESSION_ID);
    expect(next['sessionId']).not.toBe(decodeJwt(a.refreshToken).payload['sessionId']);
    expect(decodeJwt(r.body.jwt).payload['sessionId']).toBe(next['sessionId']);
    expect((await me(r.body.jwt)).status).toBe(200);
    const again = await refresh(r.body.refreshToken);
    expect(again.status, again.text).toBe(200);
    expect((await me(again.body.jwt)).body.id).toBe(a.id);
  });

  it('an already-rotated token presented again is refused and revokes its whole family (theft detection)', async () => {
    const a = await signUp();
    const other = await signIn(a.email); // a second session of the same user, another family
    const r1 = await refresh(a.refreshToken);
    expect(r1.status).toBe(200);
    const r2 = await refresh(r1.body.refreshToken);
    expect(r2.status).toBe(200);
    // the thief replays the first token
    expectError(await refresh(a.refreshToken), INVALID);
    // the family is gone: its latest refresh token and its access tokens are refused
    expectError(await refresh(r2.body.refreshToken), INVALID);
    expectError(await me(r2.body.jwt), NO_CREDENTIALS);
    expectError(await me(a.jwt), NO_CREDENTIALS);
    // the user's other session is untouched
    expect((await me(other.jwt)).status).toBe(200);
    expect((await refresh(other.refreshToken)).status).toBe(200);
  });

  it('of many refreshes racing with one token exactly one wins, and the family is revoked (never a 500)', async () => {
    const a = await signUp();
    const rs = await Promise.all(Array.from({ length: 8 }, () => refresh(a.refreshToken)));
    const ok = rs.filter((r) => r.status === 200);
    expect(ok.length).toBeLessThanOrEqual(1);
    for (const r of rs) if (r.status !== 200) expectError(r, INVALID);
    // the losers presented a used token: the winner's session is revoked with the family
    if (ok[0]) expectError(await refresh(ok[0].body.refreshToken), INVALID);
  });

  it('a blocked or deleted user can no longer refresh, nor use its access tokens', async () => {
    const a = await signUp();
    const b = await signUp();
    const put = await t.request('PUT', `/api/users/${a.id}`, { body: { blocked: true } });
    expect(put.status, put.text).toBe(200);
    expectError(await refresh(a.refreshToken), INVALID);
    expect((await me(a.jwt)).status).toBe(401);
    const del = await t.request('DELETE', `/api/users/${b.id}`);
    expect(del.status, del.text).toBe(200);
    expectError(await refresh(b.refreshToken), INVALID);
    expect((await me(b.jwt)).status).toBe(401);
  });
});

describe('logout and the sessions routes', () => {
  it('logout revokes every session of the user: refresh and access tokens of all of them are refused', async () => {
    const a = await signUp();
    const a2 = await signIn(a.email);
    const b = await signUp();
    expectError(await post(t, LOGOUT, {}), errorOf(403, 'ForbiddenError', 'Forbidden'));
    const out = await post(t, LOGOUT, {}, a.jwt);
    expect(out.status, out.text).toBe(200);
    expect(out.body).toEqual({ ok: true });
    for (const s of [a, a2]) {
      expectError(await refresh(s.refreshToken), INVALID);
      expectError(await me(s.jwt), NO_CREDENTIALS);
    }
    expect((await me(b.jwt)).status).toBe(200);
    expect((await refresh(b.refreshToken)).status).toBe(200);
    // a new login opens a new session
    expect((await me((await signIn(a.email)).jwt)).status).toBe(200);
  });

  it('GET /auth/sessions lists the standing sessions; DELETE revokes one; unknown or foreign ids are 404 Session not found', async () => {
    const a = await signUp(t, { deviceId: 'laptop' });
    const a2 = await signIn(a.email, { deviceId: 'phone' });
    const b = await signUp();
    const list = await t.get(SESSIONS, { token: a2.jwt });
    expect(list.status, list.text).toBe(200);
    const id1 = decodeJwt(a.jwt).payload['sessionId'];
    const id2 = decodeJwt(a2.jwt).payload['sessionId'];
    expect(list.body).toEqual({
      data: [
        { id: id2, deviceId: 'phone', current: true, loginAt: expect.any(String), lastActiveAt: expect.any(String) },
        { id: id1, deviceId: 'laptop', current: false, loginAt: expect.any(String), lastActiveAt: expect.any(String) },
      ],
    });
    expect(new Date(list.body.data[0].loginAt as string).toISOString()).toBe(list.body.data[0].loginAt);
    // without a user: the Public role may not list sessions
    expect((await t.get(SESSIONS, { token: null })).status).toBe(403);
    const notFound = errorOf(404, 'NotFoundError', 'Session not found');
    expectError(await t.request('DELETE', `${SESSIONS}/${'0'.repeat(32)}`, { token: a.jwt }), notFound);
    expectError(await t.request('DELETE', `${SESSIONS}/not-a-session`, { token: a.jwt }), notFound);
    expectError(await t.request('DELETE', `${SESSIONS}/${decodeJwt(b.jwt).payload['sessionId']}`, { token: a.jwt }), notFound);
    const del = await t.request('DELETE', `${SESSIONS}/${id1}`, { token: a2.jwt });
    expect(del.status, del.text).toBe(200);
    expect(del.body).toEqual({ data: {} });
    expectError(await t.request('DELETE', `${SESSIONS}/${id1}`, { token: a2.jwt }), notFound);
    expectError(await refresh(a.refreshToken), INVALID);
    expectError(await me(a.jwt), NO_CREDENTIALS);
    expect((await t.get(SESSIONS, { token: a2.jwt })).body.data.map((s: { id: string }) => s.id)).toEqual([id2]);
    // b's session was not touched
    expect((await me(b.jwt)).status).toBe(200);
    // after a rotation, the session listed is the new one, still current for the old access token
    const r = await refresh(a2.refreshToken);
    const after = await t.get(SESSIONS, { token: a2.jwt });
    expect(after.body.data).toEqual([
      { id: decodeJwt(r.body.jwt).payload['sessionId'], deviceId: 'phone', current: true, loginAt: list.body.data[0].loginAt, lastActiveAt: expect.any(String) },
    ]);
  });
});

describe('GET /auth/sessions as Strapi 5.54 shows them', () => {
  const CHROME_MAC = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';
  const FIREFOX_WIN = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:121.0) Gecko/20100101 Firefox/121.0';
  const as = (ua: string | null): Record<string, string> => (ua === null ? {} : { 'user-agent': ua });

  it('the current session first, then the most recently used; deviceName from the login User-Agent, kept through rotations', async () => {
    const name = `rf${++n}`;
    const email = `${name}@example.com`;
    const reg = await t.request('POST', '/api/auth/local/register', { token: null, headers: as(CHROME_MAC), body: { username: name, email, password: 'secret123' } });
    expect(reg.status, reg.text).toBe(200);
    const signIn = async (ua: string | null, deviceId?: string) => {
      const r = await t.request('POST', '/api/auth/local', { token: null, headers: as(ua), body: { identifier: email, password: 'secret123', ...(deviceId ? { deviceId } : {}) } });
      expect(r.status, r.text).toBe(200);
      return r.body as { jwt: string; refreshToken: string };
    };
    const pc = await signIn(FIREFOX_WIN, 'pc');
    const bare = await signIn('curl/8.5.0');
    const sid = (jwt: string) => decodeJwt(jwt).payload['sessionId'];
    const any = { loginAt: expect.any(String), lastActiveAt: expect.any(String) };

    // the registration's session is current; the others follow newest first
    const list = await t.get(SESSIONS, { token: reg.body.jwt });
    expect(list.status, list.text).toBe(200);
    expect(list.body.data).toEqual([
      { id: sid(reg.body.jwt), deviceId: expect.stringMatching(UUID), deviceName: 'Chrome on macOS', current: true, ...any },
      { id: sid(bare.jwt), deviceId: null, current: false, ...any },
      { id: sid(pc.jwt), deviceId: 'pc', deviceName: 'Firefox on Windows', current: false, ...any },
    ]);
    // key order as Strapi's: deviceName between deviceId and current, and absent when the agent is unknown
    expect(Object.keys(list.body.data[0])).toEqual(['id', 'deviceId', 'deviceName', 'current', 'loginAt', 'lastActiveAt']);
    expect(Object.keys(list.body.data[1])).toEqual(['id', 'deviceId', 'current', 'loginAt', 'lastActiveAt']);

    // a refresh makes pc's session the most recently used; its label stays, whatever agent refreshes
    await new Promise((r) => setTimeout(r, 5));
    const rotated = await t.request('POST', REFRESH, { token: null, headers: as(null), body: { refreshToken: pc.refreshToken } });
    expect(rotated.status, rotated.text).toBe(200);
    const after = await t.get(SESSIONS, { token: bare.jwt });
    expect(after.body.data.map((s: { id: string; deviceName?: string; current: boolean }) => [s.id, s.deviceName, s.current])).toEqual([
      [sid(bare.jwt), undefined, true],
      [sid(rotated.body.jwt), 'Firefox on Windows', false],
      [sid(reg.body.jwt), 'Chrome on macOS', false],
    ]);

    // a password change opens a session with no label, as Strapi's
    const change = await t.request('POST', '/api/auth/change-password', {
      token: reg.body.jwt,
      headers: as(CHROME_MAC),
      body: { currentPassword: 'secret123', password: 'newpass123', passwordConfirmation: 'newpass123' },
    });
    expect(change.status, change.text).toBe(200);
    expect((await t.get(SESSIONS, { token: change.body.jwt })).body.data).toEqual([{ id: sid(change.body.jwt), deviceId: expect.stringMatching(UUID), current: true, ...any }]);
  });
});

describe('an API token on the session routes', () => {
  it('logout, GET /auth/sessions and DELETE /auth/sessions/:id answer 401 Missing authentication, as Strapi 5.54 (seen)', async () => {
    const a = await signUp();
    const missing = errorOf(401, 'UnauthorizedError', 'Missing authentication');
    // t.token is a full-access API token: it holds the actions, but is no user with sessions
    expectError(await t.request('POST', LOGOUT, { token: t.token, body: {} }), missing);
    expectError(await t.get(SESSIONS, { token: t.token }), missing);
    expectError(await t.request('DELETE', `${SESSIONS}/${decodeJwt(a.jwt).payload['sessionId']}`, { token: t.token }), missing);
    // nothing was revoked
    expect((await me(a.jwt)).status).toBe(200);
    expect((await refresh(a.refreshToken)).status).toBe(200);
  });
});

describe('password changes revoke every session', () => {
  it('change-password revokes all sessions and answers a fresh {jwt, refreshToken, user}', async () => {
    const a = await signUp();
    const a2 = await signIn(a.email);
    const r = await post(t, '/api/auth/change-password', { currentPassword: 'secret123', password: 'newpass123', passwordConfirmation: 'newpass123', deviceId: 'tablet' }, a.jwt);
    expect(r.status, r.text).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(['jwt', 'refreshToken', 'user']);
    for (const s of [a, a2]) {
      expectError(await refresh(s.refreshToken), INVALID);
      expectError(await me(s.jwt), NO_CREDENTIALS);
    }
    expect((await me(r.body.jwt)).status).toBe(200);
    expect((await t.get(SESSIONS, { token: r.body.jwt })).body.data).toEqual([expect.objectContaining({ deviceId: 'tablet', current: true })]);
    expect((await refresh(r.body.refreshToken)).status).toBe(200);
  });

  it('reset-password revokes all sessions and answers a fresh {jwt, refreshToken, user}', async () => {
    const a = await signUp();
    expect((await post(t, '/api/auth/forgot-password', { email: a.email })).status).toBe(200);
    const code = linkIn(await env.sink.next(), /code=([0-9a-f]+)/);
    const r = await post(t, '/api/auth/reset-password', { code, password: 'newpass123', passwordConfirmation: 'newpass123' });
    expect(r.status, r.text).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(['jwt', 'refreshToken', 'user']);
    expectError(await refresh(a.refreshToken), INVALID);
    expectError(await me(a.jwt), NO_CREDENTIALS);
    expect((await me(r.body.jwt)).status).toBe(200);
    // without a deviceId the new session gets a random one, as Strapi's
    const [session] = (await t.get(SESSIONS, { token: r.body.jwt })).body.data;
    expect(session.deviceId).toMatch(UUID);
    expect((await refresh(r.body.refreshToken)).status).toBe(200);
  });

  it('change-password without a deviceId opens its session under a random one', async () => {
    const a = await signUp();
    const r = await post(t, '/api/auth/change-password', { currentPassword: 'secret123', password: 'newpass123', passwordConfirmation: 'newpass123' }, a.jwt);
    expect(r.status, r.text).toBe(200);
    const [session] = (await t.get(SESSIONS, { token: r.body.jwt })).body.data;
    expect(session.deviceId).toMatch(UUID);
  });
});

/** the cookies of a response's Set-Cookie headers: name → {value, attributes} */
function setCookies(r: Response): Map<string, { value: string; attrs: string[] }> {
  const out = new Map<string, { value: string; attrs: string[] }>();
  for (const line of r.headers.getSetCookie()) {
    const [pair, ...attrs] = line.split(';').map((s) => s.trim());
    const i = pair!.indexOf('=');
    out.set(pair!.slice(0, i), { value: pair!.slice(i + 1), attrs });
  }
  return out;
}

describe('cookie variant', () => {
  const COOKIE = { 'x-strapi-refresh-cookie': 'httpOnly' };

  it('the x-strapi-refresh-cookie header puts the refresh token of a login in a signed HttpOnly cookie; refresh reads it first', async () => {
    const a = await signUp();
    const log = await t.request('POST', '/api/auth/local', { token: null, headers: COOKIE, body: { identifier: a.email, password: 'secret123' } });
    expect(log.status, log.text).toBe(200);
    expect(Object.keys(log.body).sort()).toEqual(['jwt', 'user']);
    const c = setCookies(log).get('strapi_up_refresh')!;
    expect(c).toBeDefined();
    expect(c.attrs.sort()).toEqual(['HttpOnly', 'Path=/', 'SameSite=Lax']);
    // signed: the token, a dot, the signature
    const token = decodeURIComponent(c.value);
    expect(decodeJwt(token.slice(0, token.lastIndexOf('.'))).payload['type']).toBe('refresh');

    const r = await t.request('POST', REFRESH, {
      token: null,
      headers: { ...COOKIE, cookie: `strapi_up_refresh=${c.value}` },
      body: { refreshToken: 'ignored-when-a-cookie-is-there' },
    });
    expect(r.status, r.text).toBe(200);
    expect(Object.keys(r.body)).toEqual(['jwt']);
    const next = setCookies(r).get('strapi_up_refresh')!;
    expect(next.value).not.toBe(c.value);
    expect((await me(r.body.jwt)).status).toBe(200);

    // the old cookie is refused (and, a used token, revokes the family)
    expectError(await t.request('POST', REFRESH, { token: null, headers: { cookie: `strapi_up_refresh=${c.value}` } }), INVALID);
    expectError(await t.request('POST', REFRESH, { token: null, headers: { cookie: `strapi_up_refresh=${next.value}` } }), INVALID);
  });

  it('registration, change-password and reset-password answer the refresh token in the JSON even in cookie mode, as Strapi 5.54', async () => {
    // seen on the reference (sessions.httpOnly or the header): only a login and a refresh set the cookie
    const name = `rf${++n}`;
    const reg = await t.request('POST', '/api/auth/local/register', {
      token: null,
      headers: COOKIE,
      body: { username: name, email: `${name}@example.com`, password: 'secret123' },
    });
    expect(reg.status, reg.text).toBe(200);
    expect(Object.keys(reg.body).sort()).toEqual(['jwt', 'refreshToken', 'user']);
    expect(reg.headers.getSetCookie()).toEqual([]);
    expect((await refresh(reg.body.refreshToken)).status).toBe(200);

    const log = await t.request('POST', '/api/auth/local', { token: null, headers: COOKIE, body: { identifier: name, password: 'secret123' } });
    const cookie = `strapi_up_refresh=${setCookies(log).get('strapi_up_refresh')!.value}`;
    const change = await t.request('POST', '/api/auth/change-password', {
      token: log.body.jwt,
      headers: { ...COOKIE, cookie },
      body: { currentPassword: 'secret123', password: 'newpass123', passwordConfirmation: 'newpass123' },
    });
    expect(change.status, change.text).toBe(200);
    expect(Object.keys(change.body).sort()).toEqual(['jwt', 'refreshToken', 'user']);
    // the cookie sent names a session the change revoked: it is cleared, so the new token works from the body
    const cleared = setCookies(change).get('strapi_up_refresh')!;
    expect(cleared.value).toBe('');
    expectError(await t.request('POST', REFRESH, { token: null, headers: { cookie } }), INVALID);
    expect((await refresh(change.body.refreshToken)).status).toBe(200);

    expect((await post(t, '/api/auth/forgot-password', { email: `${name}@example.com` })).status).toBe(200);
    const code = linkIn(await env.sink.next(), /code=([0-9a-f]+)/);
    const reset = await t.request('POST', '/api/auth/reset-password', {
      token: null,
      headers: COOKIE,
      body: { code, password: 'newpass456', passwordConfirmation: 'newpass456' },
    });
    expect(reset.status, reset.text).toBe(200);
    expect(Object.keys(reset.body).sort()).toEqual(['jwt', 'refreshToken', 'user']);
    expect(reset.headers.getSetCookie()).toEqual([]);
    expect((await refresh(reset.body.refreshToken)).status).toBe(200);
  });

  it('a tampered or unsigned cookie is 401 Invalid refresh token; logout clears the cookie', async () => {
    const a = await signUp();
    const log = await t.request('POST', '/api/auth/local', { token: null, headers: COOKIE, body: { identifier: a.email, password: 'secret123' } });
    const c = setCookies(log).get('strapi_up_refresh')!;
    const signed = decodeURIComponent(c.value);
    const dot = signed.lastIndexOf('.');
    const bare = signed.slice(0, dot);
    const sig = signed.slice(dot + 1);
    const flipped = sig.slice(0, -2) + (sig.at(-2) === 'A' ? 'B' : 'A') + sig.at(-1);
    for (const bad of [bare, `${bare}.${flipped}`, `${bare.slice(0, -3)}abc.${sig}`, 'x']) {
      expectError(await t.request('POST', REFRESH, { token: null, headers: { cookie: `strapi_up_refresh=${encodeURIComponent(bad)}` } }), INVALID);
    }
    // malformed percent-encoding and an oversized cookie: still a 401, never a 500
    for (const raw of ['%E0%A4%A', '%', 'x'.repeat(6000)]) {
      expectError(await t.request('POST', REFRESH, { token: null, headers: { cookie: `strapi_up_refresh=${raw}` } }), INVALID);
    }
    // the real one still works: nothing above touched the session
    const r = await t.request('POST', REFRESH, { token: null, headers: { ...COOKIE, cookie: `strapi_up_refresh=${c.value}` } });
    expect(r.status, r.text).toBe(200);
    const out = await t.request('POST', LOGOUT, { token: r.body.jwt, headers: COOKIE, body: {} });
    expect(out.body).toEqual({ ok: true });
    const cleared = setCookies(out).get('strapi_up_refresh')!;
    expect(cleared.value).toBe('');
    expect(cleared.attrs.some((a) => /^Expires=Thu, 01 Jan 1970/.test(a) || a === 'Max-Age=0')).toBe(true);
    expectError(await t.request('POST', REFRESH, { token: null, headers: { cookie: `strapi_up_refresh=${setCookies(r).get('strapi_up_refresh')!.value}` } }), INVALID);
  });
});

describe('sessions.httpOnly, a cookie name, production, short lifetimes (2 s access, 4 s idle, 5 s cap)', () => {
  let app: TestApp;
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const cookieOf = (r: Response): string => setCookies(r).get('my_refresh')!.value;
  const refreshWith = (cookie: string): Promise<Response> => app.request('POST', REFRESH, { token: null, headers: { cookie: `my_refresh=${cookie}` } });

  beforeAll(async () => {
    app = await startTestApp({
      env: 'production',
      usersPermissions: usersPermissionsConfig({
        'users-permissions': {
          config: {
            jwtManagement: 'refresh',
            sessions: { httpOnly: true, cookie: { name: 'my_refresh' }, accessTokenLifespan: 2, idleRefreshTokenLifespan: 4, maxRefreshTokenLifespan: 5 },
          },
        },
      }),
    });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('a login and a refresh put the refresh token in the named cookie, Secure in production; refresh answers {jwt}', async () => {
    const reg = await post(app, '/api/auth/local/register', { username: 'cookie1', email: 'cookie1@example.com', password: 'secret123' });
    expect(reg.status, reg.text).toBe(200);
    // a registration answers its refresh token in the JSON, as Strapi 5.54 does even with httpOnly
    expect(Object.keys(reg.body).sort()).toEqual(['jwt', 'refreshToken', 'user']);
    expect(reg.headers.getSetCookie()).toEqual([]);
    const r = await post(app, '/api/auth/local', { identifier: 'cookie1', password: 'secret123' });
    expect(r.status, r.text).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(['jwt', 'user']);
    const c = setCookies(r).get('my_refresh')!;
    expect(c.attrs.sort()).toEqual(['HttpOnly', 'Path=/', 'SameSite=Lax', 'Secure']);
    expect(setCookies(r).has('strapi_up_refresh')).toBe(false);
    const rr = await refreshWith(c.value);
    expect(rr.status, rr.text).toBe(200);
    expect(Object.keys(rr.body)).toEqual(['jwt']);
    expect(cookieOf(rr)).not.toBe(c.value);
    expectError(await app.request('POST', REFRESH, { token: null, body: {} }), MISSING);
  });

  it('the access token, the idle window and the family cap expire', async () => {
    // what must still work is checked first after each step, with a second or more to spare: a loaded
    // CI machine can spend most of a second on one bcrypt hash, and an `exp` counted in whole seconds
    // gives a token of lifespan n between n-1 and n seconds; "refused" checks only get later
    await post(app, '/api/auth/local/register', { username: 'short1', email: 'short1@example.com', password: 'secret123' });
    const first = await post(app, '/api/auth/local', { identifier: 'short1', password: 'secret123' });
    const idle = { jwt: first.body.jwt as string, cookie: cookieOf(first) };
    const access = decodeJwt(idle.jwt).payload;
    expect(access['exp']).toBe(Number(access['iat']) + 2);
    expect((await me(idle.jwt, app)).status).toBe(200);
    const log = await post(app, '/api/auth/local', { identifier: 'short1', password: 'secret123' });
    const capped = cookieOf(log);
    await sleep(2_200);
    // the access token is past its 2 s; the capped family keeps refreshing inside its 4 s idle window
    expectError(await me(idle.jwt, app), NO_CREDENTIALS);
    const r1 = await refreshWith(capped);
    expect(r1.status, r1.text).toBe(200);
    await sleep(2_000);
    // 4.2 s: idle's token was never refreshed within 4 s
    expectError(await refreshWith(idle.cookie), INVALID);
    await sleep(900);
    // 5.1 s: r1's token is 2.9 s old, inside its own 4 s idle window, but the family's 5 s cap counted
    // from the login has passed
    expectError(await refreshWith(cookieOf(r1)), INVALID);
  });
});
