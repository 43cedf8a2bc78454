// Users' access tokens on the way in (contract: Authentication rules 1, 4, 6; behaviour.md §10.4):
// every forged, expired or malformed JWT is "Missing or invalid credentials"; a well-signed token of
// a deleted or blocked user is "Invalid credentials" from the next request on; never a 500.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT } from 'jose';
import { createUser, errorOf, expectError, JWT_SECRET, login, startAuthApp, type AuthEnv } from './auth-support.js';
import type { Response, TestApp } from '../support/app.js';

const MISSING = errorOf(401, 'UnauthorizedError', 'Missing or invalid credentials');
const REFUSED = errorOf(401, 'UnauthorizedError', 'Invalid credentials');

let env: AuthEnv;
let t: TestApp;
let userId: number;
let jwt: string;

const key = (secret: string): Uint8Array => new TextEncoder().encode(secret);
const now = (): number => Math.floor(Date.now() / 1000);
const b64 = (o: unknown): string => Buffer.from(JSON.stringify(o)).toString('base64url');

async function sign(payload: Record<string, unknown>, opts: { secret?: string; alg?: string; iat?: number; exp?: number } = {}): Promise<string> {
  const iat = opts.iat ?? now();
  return new SignJWT(payload)
    .setProtectedHeader({ alg: opts.alg ?? 'HS256', typ: 'JWT' })
    .setIssuedAt(iat)
    .setExpirationTime(opts.exp ?? iat + 3600)
    .sign(key(opts.secret ?? JWT_SECRET));
}

const me = (token: string): Promise<Response> => t.get('/api/users/me', { token });

beforeAll(async () => {
  env = await startAuthApp();
  t = env.t;
  userId = await createUser(t, { username: 'tess', email: 'tess@example.com', password: 'tess-pass1', confirmed: true });
  const r = await login(t, 'tess', 'tess-pass1');
  expect(r.status, r.text).toBe(200);
  jwt = r.body.jwt as string;
});
afterAll(async () => {
  await env?.close();
});

describe("users' JWTs", () => {
  it('a JWT signed here with {id, iat, exp} is accepted, whatever the case of "Bearer"', async () => {
    expect((await me(jwt)).status).toBe(200);
    expect((await me(await sign({ id: userId }))).body.id).toBe(userId);
    const lower = await t.get('/api/users/me', { token: null, headers: { authorization: `bearer ${jwt}` } });
    expect(lower.status, lower.text).toBe(200);
  });

  it('an unsigned JWT (alg: none) is refused as missing or invalid credentials', async () => {
    const payload = { id: userId, iat: now(), exp: now() + 3600 };
    expectError(await me(`${b64({ alg: 'none', typ: 'JWT' })}.${b64(payload)}.`), MISSING);
    expectError(await me(`${b64({ alg: 'none' })}.${b64(payload)}.${jwt.split('.')[2]!}`), MISSING);
    expectError(await me(`${b64({ alg: 'NONE', typ: 'JWT' })}.${b64(payload)}.`), MISSING);
  });

  it('a JWT signed with another key or another algorithm is refused', async () => {
    expectError(await me(await sign({ id: userId }, { secret: 'another-secret' })), MISSING);
    expectError(await me(await sign({ id: userId }, { alg: 'HS512' })), MISSING);
    expectError(await me(await sign({ id: userId }, { alg: 'HS384' })), MISSING);
  });

  it('a JWT whose payload was changed after signing is refused', async () => {
    const [h, , s] = jwt.split('.');
    const other = b64({ id: userId + 1, iat: now(), exp: now() + 3600 });
    expectError(await me(`${h!}.${other}.${s!}`), MISSING);
  });

  it('a JWT past its exp is refused', async () => {
    expectError(await me(await sign({ id: userId }, { iat: now() - 7200, exp: now() - 60 })), MISSING);
  });

  it('a well-signed JWT without a usable id is refused as missing or invalid credentials', async () => {
    for (const payload of [
      {},
      { id: 'abc' },
      { id: '1abc' },
      { id: null },
      { id: 0 },
      { id: -1 },
      { id: 1.5 },
      { id: 1e300 },
      { id: [userId] },
      { id: { $gt: 0 } },
      { id: true },
    ]) {
      expectError(await me(await sign(payload)), MISSING);
    }
  });

  it('a well-signed JWT of a user that does not exist is refused as invalid credentials, never a 500', async () => {
    for (const id of [987654, 2 ** 31 - 1, 2 ** 31, 2 ** 40, Number.MAX_SAFE_INTEGER]) {
      const r = await me(await sign({ id }));
      expect(r.status, `${id}: ${r.text}`).toBe(401);
      expect([MISSING, REFUSED]).toContainEqual(r.body);
    }
    expectError(await me(await sign({ id: 987654 })), REFUSED);
  });

  it('garbage in the Authorization header is refused, never a 500', async () => {
    for (const token of ['a.b', 'a.b.c', '...', 'x'.repeat(8_000) + '.y.z', `${jwt}.extra`, `${jwt.slice(0, -2)}`, 'eyJ.eyJ.', '%00.%00.%00']) {
      const r = await me(token);
      expectError(r, MISSING);
    }
    // a header that names no Bearer token is no token: the Public role then lacks user.me
    const basic = await t.get('/api/users/me', { token: null, headers: { authorization: 'Basic dGVzczp0ZXNz' } });
    expectError(basic, errorOf(403, 'ForbiddenError', 'Forbidden'));
  });

  it('a forged JWT is refused on a public route too', async () => {
    const r = await t.request('POST', '/api/auth/local', { token: await sign({ id: userId }, { secret: 'another-secret' }), body: { identifier: 'tess', password: 'tess-pass1' } });
    expectError(r, MISSING);
  });
});

describe("users' JWTs after the account changes", () => {
  it("a blocked user's still-valid JWT is refused at once, and accepted again once unblocked", async () => {
    const id = await createUser(t, { username: 'blocked-later', email: 'blocked-later@example.com', password: 'blocked-pass', confirmed: true });
    const token = (await login(t, 'blocked-later', 'blocked-pass')).body.jwt as string;
    expect((await me(token)).status).toBe(200);
    expect((await t.request('PUT', `/api/users/${id}`, { body: { blocked: true } })).status).toBe(200);
    expectError(await me(token), REFUSED);
    expectError(
      await t.request('POST', '/api/auth/change-password', { token, body: { currentPassword: 'blocked-pass', password: 'other-pass', passwordConfirmation: 'other-pass' } }),
      REFUSED,
    );
    expect((await t.request('PUT', `/api/users/${id}`, { body: { blocked: false } })).status).toBe(200);
    expect((await me(token)).status).toBe(200);
  });

  it("a deleted user's still-valid JWT is refused at once", async () => {
    const id = await createUser(t, { username: 'deleted-later', email: 'deleted-later@example.com', password: 'deleted-pass', confirmed: true });
    const token = (await login(t, 'deleted-later', 'deleted-pass')).body.jwt as string;
    expect((await me(token)).status).toBe(200);
    expect((await t.request('DELETE', `/api/users/${id}`)).status).toBe(200);
    expectError(await me(token), REFUSED);
  });
});
