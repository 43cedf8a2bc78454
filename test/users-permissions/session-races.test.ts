// Refresh mode under concurrency: a stolen refresh token rotated as fast as the server answers, or a
// login with the old password still in flight, must not outlive the logout or password change that
// revokes the user's sessions. (Found on PostgreSQL, where a revoking UPDATE did not see a session a
// concurrent rotation committed meanwhile.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { post, startAuthApp, statuses, type AuthEnv } from './auth-support.js';
import type { TestApp } from '../support/app.js';

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

async function signUp(): Promise<{ email: string; jwt: string }> {
  const name = `race${++n}`;
  const r = await post(t, '/api/auth/local/register', { username: name, email: `${name}@example.com`, password: 'secret123' });
  expect(r.status, r.text).toBe(200);
  return { email: `${name}@example.com`, jwt: r.body.jwt as string };
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const me = async (jwt: string): Promise<number> => (await t.get('/api/users/me', { token: jwt })).status;

/** Rotates the attacker's refresh token until `stop`, keeping the newest tokens. */
async function keepRefreshing(start: { jwt: string; refreshToken: string }, stop: () => boolean): Promise<{ jwt: string; refreshToken: string }> {
  let held = start;
  while (!stop()) {
    const r = await post(t, '/api/auth/refresh', { refreshToken: held.refreshToken });
    if (r.status !== 200) break;
    held = { jwt: r.body.jwt as string, refreshToken: r.body.refreshToken as string };
  }
  return held;
}

describe('revocation racing a rotation', () => {
  for (const action of ['logout', 'change-password'] as const) {
    it(`${action} while a stolen refresh token is rotated back to back: nothing it held works afterwards (8 tries)`, async () => {
      for (let i = 0; i < 8; i++) {
        const victim = await signUp();
        const login = await post(t, '/api/auth/local', { identifier: victim.email, password: 'secret123', deviceId: 'attacker' });
        expect(login.status, login.text).toBe(200);
        let done = false;
        const attacker = keepRefreshing({ jwt: login.body.jwt, refreshToken: login.body.refreshToken }, () => done);
        await sleep(5 + i * 7);
        const r =
          action === 'logout'
            ? await post(t, '/api/auth/logout', {}, victim.jwt)
            : await post(t, '/api/auth/change-password', { currentPassword: 'secret123', password: 'secret456', passwordConfirmation: 'secret456' }, victim.jwt);
        expect(r.status, r.text).toBe(200);
        done = true;
        const held = await attacker;
        expect([await me(held.jwt), (await post(t, '/api/auth/refresh', { refreshToken: held.refreshToken })).status], `try ${i}`).toEqual([401, 401]);
      }
    });
  }
});

describe('a login in flight when the password changes', () => {
  it('gets no session that outlives the change: every token it was given is refused afterwards', async () => {
    const victim = await signUp();
    let done = false;
    const got: string[] = [];
    const loop = async (): Promise<void> => {
      while (!done) {
        const r = await post(t, '/api/auth/local', { identifier: victim.email, password: 'secret123' });
        if (r.status === 200) got.push(r.body.jwt as string);
        else expect(r.body.error.message).toBe('Invalid identifier or password');
      }
    };
    const loops = [loop(), loop(), loop(), loop()];
    await sleep(150);
    const r = await post(t, '/api/auth/change-password', { currentPassword: 'secret123', password: 'secret456', passwordConfirmation: 'secret456' }, victim.jwt);
    expect(r.status, r.text).toBe(200);
    await sleep(100);
    done = true;
    await Promise.all(loops);
    expect(got.length).toBeGreaterThan(0);
    const statuses = await Promise.all(got.map(me));
    expect(statuses.every((s) => s === 401)).toBe(true);
    // the changer's own new session stands
    expect(await me(r.body.jwt as string)).toBe(200);
  });
});

describe("different users' session writes at once", () => {
  // each takes its own user's lock, so none waits for another; on MariaDB their inserts (the users'
  // first locks, their sessions) took gap locks at REPEATABLE READ and deadlocked, and the loser was a 500
  it('40 registrations, then 40 logins and 40 refreshes of different users, each batch at once: every one succeeds', async () => {
    const names = Array.from({ length: 40 }, () => `many${++n}`);
    const regs = await Promise.all(names.map((name) => post(t, '/api/auth/local/register', { username: name, email: `${name}@example.com`, password: 'secret123' })));
    expect(statuses(regs), regs.find((r) => r.status !== 200)?.text).toEqual({ 200: 40 });
    const logins = await Promise.all(names.map((name) => post(t, '/api/auth/local', { identifier: name, password: 'secret123' })));
    expect(statuses(logins), logins.find((r) => r.status !== 200)?.text).toEqual({ 200: 40 });
    for (let round = 0; round < 3; round++) {
      const tokens = [...regs, ...logins].map((r) => r.body.refreshToken as string);
      const rotated = await Promise.all(tokens.map((refreshToken) => post(t, '/api/auth/refresh', { refreshToken })));
      expect(statuses(rotated), `round ${round}: ${rotated.find((r) => r.status !== 200)?.text}`).toEqual({ 200: 80 });
      rotated.forEach((r, i) => ((i < 40 ? regs : logins)[i % 40]!.body.refreshToken = r.body.refreshToken));
    }
  });
});
