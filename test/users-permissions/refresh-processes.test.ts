// Refresh mode across processes (issue 20 point 4): two real `folio start` servers on one database
// behave as one — a session revoked on one is refused on the other at once, and a rotation on one
// invalidates the old refresh token on both (each process has just served the token, so a state kept
// in its memory would show).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyProject, ensureBuilt, spawnFolio, type Project, type Server } from '../cli/helpers.js';
import { startOAuthProvider, type OAuthProvider } from '../support/oauth-provider.js';

let project: Project;
let servers: Server[] = [];
let a = '';
let b = '';
let workers = '';
let provider: OAuthProvider;
const FRONT = 'http://front.test/signed-in';

interface Answer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON
  body: any;
}

async function call(base: string, method: string, path: string, opts: { jwt?: string; body?: unknown } = {}): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (opts.jwt) headers['authorization'] = `Bearer ${opts.jwt}`;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  const r = await fetch(base + path, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) });
  const text = await r.text();
  return { status: r.status, body: text ? JSON.parse(text) : undefined };
}

const INVALID = { data: null, error: { status: 401, name: 'UnauthorizedError', message: 'Invalid refresh token', details: {} } };
const NO_CREDENTIALS = { data: null, error: { status: 401, name: 'UnauthorizedError', message: 'Missing or invalid credentials', details: {} } };
const sessionOf = (jwt: string): string => (JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()) as { sessionId: string }).sessionId;

beforeAll(async () => {
  await ensureBuilt();
  provider = await startOAuthProvider();
  project = await copyProject();
  const file = join(project.dir, 'config', 'plugins.json');
  const plugins = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  writeFileSync(
    file,
    JSON.stringify({
      ...plugins,
      'users-permissions': {
        config: {
          jwtManagement: 'refresh',
          ratelimit: { enabled: false },
          providers: {
            github: {
              enabled: true,
              key: 'gh',
              secret: 'gh-secret',
              callback: FRONT,
              authorize_url: `${provider.url}/authorize`,
              access_url: `${provider.url}/token`,
              api_url: `${provider.apiUrl}/github`,
            },
          },
        },
      },
    }),
  );
  servers = [0, 1].map(() => spawnFolio(project, ['start', '--port', '0', '--host', '127.0.0.1'], { FOLIO_LOG: 'false' }));
  // and `folio start --workers 2` on the same database: one port, requests spread over two processes
  servers.push(spawnFolio(project, ['start', '--workers', '2', '--port', '0', '--host', '127.0.0.1'], { FOLIO_LOG: 'false' }));
  const bases = await Promise.all(servers.map(async (s) => (await s.waitFor(/Folio listening on (http:\/\/127\.0\.0\.1:\d+)( with 2 workers)?\n/, 60_000))[1]!));
  a = bases[0]!;
  b = bases[1]!;
  workers = bases[2]!;
}, 90_000);

afterAll(async () => {
  for (const s of servers) await s.stop();
  await project?.remove();
  await provider?.close();
});

async function login(base: string, email: string): Promise<{ jwt: string; refreshToken: string }> {
  const r = await call(base, 'POST', '/api/auth/local', { body: { identifier: email, password: 'Passw0rd!' } });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body as { jwt: string; refreshToken: string };
}

describe('two Folio processes on one database, refresh mode', () => {
  it('a session revoked on one process is refused on the other at once; logout on one counts on both', async () => {
    const reg = await call(a, 'POST', '/api/auth/local/register', { body: { username: 'multi1', email: 'multi1@example.com', password: 'Passw0rd!' } });
    expect(reg.status, JSON.stringify(reg.body)).toBe(200);
    const s1 = reg.body as { jwt: string; refreshToken: string };
    const s2 = await login(b, 'multi1@example.com');
    // both processes have just accepted both sessions
    for (const base of [a, b]) for (const s of [s1, s2]) expect((await call(base, 'GET', '/api/users/me', { jwt: s.jwt })).status).toBe(200);

    const del = await call(a, 'DELETE', `/api/auth/sessions/${sessionOf(s1.jwt)}`, { jwt: s2.jwt });
    expect(del).toEqual({ status: 200, body: { data: {} } });
    expect(await call(b, 'GET', '/api/users/me', { jwt: s1.jwt })).toEqual({ status: 401, body: NO_CREDENTIALS });
    expect(await call(b, 'POST', '/api/auth/refresh', { body: { refreshToken: s1.refreshToken } })).toEqual({ status: 401, body: INVALID });
    expect((await call(b, 'GET', '/api/users/me', { jwt: s2.jwt })).status).toBe(200);

    // logout on b revokes every session, also for a
    const s3 = await login(a, 'multi1@example.com');
    expect((await call(a, 'GET', '/api/users/me', { jwt: s3.jwt })).status).toBe(200);
    expect(await call(b, 'POST', '/api/auth/logout', { jwt: s2.jwt, body: {} })).toEqual({ status: 200, body: { ok: true } });
    for (const s of [s2, s3]) {
      expect(await call(a, 'GET', '/api/users/me', { jwt: s.jwt })).toEqual({ status: 401, body: NO_CREDENTIALS });
      expect(await call(a, 'POST', '/api/auth/refresh', { body: { refreshToken: s.refreshToken } })).toEqual({ status: 401, body: INVALID });
    }
  });

  it('a rotation on one process invalidates the old refresh token on both; of a race across processes at most one wins', async () => {
    const reg = await call(b, 'POST', '/api/auth/local/register', { body: { username: 'multi2', email: 'multi2@example.com', password: 'Passw0rd!' } });
    expect(reg.status).toBe(200);
    const first = reg.body as { jwt: string; refreshToken: string };
    const rotated = await call(a, 'POST', '/api/auth/refresh', { body: { refreshToken: first.refreshToken } });
    expect(rotated.status, JSON.stringify(rotated.body)).toBe(200);
    expect(Object.keys(rotated.body).sort()).toEqual(['jwt', 'refreshToken']);
    // the old token on the other process: refused, and (a used token) its family is revoked on both
    expect(await call(b, 'POST', '/api/auth/refresh', { body: { refreshToken: first.refreshToken } })).toEqual({ status: 401, body: INVALID });
    expect(await call(a, 'POST', '/api/auth/refresh', { body: { refreshToken: first.refreshToken } })).toEqual({ status: 401, body: INVALID });
    expect(await call(a, 'POST', '/api/auth/refresh', { body: { refreshToken: rotated.body.refreshToken } })).toEqual({ status: 401, body: INVALID });
    expect(await call(b, 'GET', '/api/users/me', { jwt: rotated.body.jwt })).toEqual({ status: 401, body: NO_CREDENTIALS });

    // one token sent to both processes at once, several times each
    const s = await login(a, 'multi2@example.com');
    const rs = await Promise.all([a, b, a, b, a, b].map((base) => call(base, 'POST', '/api/auth/refresh', { body: { refreshToken: s.refreshToken } })));
    expect(rs.filter((r) => r.status === 200).length).toBeLessThanOrEqual(1);
    for (const r of rs) if (r.status !== 200) expect(r).toEqual({ status: 401, body: INVALID });
    for (const srv of servers) expect(srv.stderr()).toBe('');
  });

  it('change-passwords racing across processes with one current password: one succeeds, its session alone survives', async () => {
    const reg = await call(a, 'POST', '/api/auth/local/register', { body: { username: 'multi4', email: 'multi4@example.com', password: 'Passw0rd!' } });
    expect(reg.status).toBe(200);
    const jwt = (reg.body as { jwt: string }).jwt;
    const news = [0, 1, 2, 3, 4, 5].map((i) => `Changed-${i}!`);
    const rs = await Promise.all(
      news.map((p, i) => call(i % 2 ? b : a, 'POST', '/api/auth/change-password', { jwt, body: { currentPassword: 'Passw0rd!', password: p, passwordConfirmation: p } })),
    );
    expect(rs.map((r) => r.status).sort(), JSON.stringify(rs)).toEqual([200, 400, 400, 400, 400, 400]);
    const invalid = { data: null, error: { status: 400, name: 'ValidationError', message: 'The provided current password is invalid', details: {} } };
    for (const r of rs) if (r.status === 400) expect(r.body).toEqual(invalid);
    const won = rs.find((r) => r.status === 200)!.body as { jwt: string; refreshToken: string };
    for (const base of [a, b]) {
      expect((await call(base, 'GET', '/api/users/me', { jwt: won.jwt })).status).toBe(200);
      expect(await call(base, 'GET', '/api/users/me', { jwt })).toEqual({ status: 401, body: NO_CREDENTIALS });
    }
    const winner = news[rs.findIndex((r) => r.status === 200)]!;
    for (const p of [...news, 'Passw0rd!']) {
      const l = await call(a, 'POST', '/api/auth/local', { body: { identifier: 'multi4@example.com', password: p } });
      expect(l.status, p).toBe(p === winner ? 200 : 400);
    }
  });

  it('folio start --workers 2: a logout through one worker is refused by both at once', async () => {
    const reg = await call(workers, 'POST', '/api/auth/local/register', { body: { username: 'multi3', email: 'multi3@example.com', password: 'Passw0rd!' } });
    expect(reg.status).toBe(200);
    const s = reg.body as { jwt: string; refreshToken: string };
    const rounds = 16;
    // requests spread over both workers: each has accepted the session
    for (const r of await Promise.all(Array.from({ length: rounds }, () => call(workers, 'GET', '/api/users/me', { jwt: s.jwt })))) expect(r.status).toBe(200);
    expect(await call(workers, 'POST', '/api/auth/logout', { jwt: s.jwt, body: {} })).toEqual({ status: 200, body: { ok: true } });
    for (const r of await Promise.all(Array.from({ length: rounds }, () => call(workers, 'GET', '/api/users/me', { jwt: s.jwt }))))
      expect(r).toEqual({ status: 401, body: NO_CREDENTIALS });
    for (const r of await Promise.all(Array.from({ length: rounds }, () => call(workers, 'POST', '/api/auth/refresh', { body: { refreshToken: s.refreshToken } })))) {
      expect(r).toEqual({ status: 401, body: INVALID });
    }
  });
});

describe('provider login across processes', () => {
  it('a login started on one process comes back through a second and is answered by a third, once', async () => {
    provider.answer('/github/user', { body: { login: 'travel', email: 'travel@example.com' } });
    provider.answer('/github/user/emails', { body: [{ email: 'travel@example.com', primary: true, verified: true }] });
    const start = await fetch(`${a}/api/connect/github`, { redirect: 'manual' });
    expect(start.status).toBe(302);
    const cookie = start.headers.getSetCookie()[0]!.split(';')[0]!;
    const atProvider = await fetch(start.headers.get('location')!, { redirect: 'manual' });
    const back = new URL(atProvider.headers.get('location')!);
    const returned = await fetch(`${b}${back.pathname}${back.search}`, { redirect: 'manual', headers: { cookie } });
    expect(returned.headers.get('location')).toBe(FRONT);
    const r = await fetch(`${workers}/api/auth/github/callback`, { headers: { cookie } });
    const body = (await r.json()) as { user: { username: string; provider: string }; jwt: string; refreshToken: string };
    expect(r.status, JSON.stringify(body)).toBe(200);
    expect(body.user).toMatchObject({ username: 'travel', provider: 'github' });
    expect((await call(a, 'GET', '/api/users/me', { jwt: body.jwt })).status).toBe(200);
    // spent: no process signs in with it again
    for (const base of [a, b, workers]) {
      const again = await call(base, 'GET', '/api/auth/github/callback');
      expect(again.status).toBe(400);
    }
    const replay = await fetch(`${b}/api/auth/github/callback`, { headers: { cookie } });
    expect(replay.status).toBe(400);
  });
});
