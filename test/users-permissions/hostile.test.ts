// Odd shapes sent to every users-permissions route: always a documented 4xx (or a plain success), never a 500.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { register, type Account } from './helpers.js';

let t: TestApp;
let u: Account;
beforeAll(async () => {
  t = await startTestApp();
  u = await register(t, 'target');
});
afterAll(async () => {
  await t?.close();
});

const bodies: unknown[] = [
  null,
  [],
  'text',
  42,
  { identifier: ['a'], password: { x: 1 } },
  { email: { $ne: null } },
  { username: { toString: 1 } },
  { __proto__: { admin: true } },
  { constructor: { prototype: { polluted: true } } },
  { role: { connect: 'x' } },
  { role: [1, 2] },
  { permissions: [] },
  { permissions: { 'api::tag': { controllers: [] } } },
  { name: ['Team'] },
  { password: 'x'.repeat(10_000) },
];
const queries = [
  '?confirmation[a]=1',
  '?confirmation[]=x',
  '?filters[role][type][$eq]=public',
  '?sort[toString]=1',
  '?start[a]=1',
  '?limit=-5',
  '?populate[role][populate][users]=true',
  '?fields[0]=constructor',
  '?pagination[page]=x',
  '?_q[]=a',
  '?filters[$or][0][password][$eq]=x',
];

describe('users-permissions routes under hostile input', () => {
  it('answer every odd body and query with a 2xx, 3xx or 4xx', async () => {
    const routes: [string, string][] = [
      ['POST', '/api/auth/local'],
      ['POST', '/api/auth/local/register'],
      ['POST', '/api/auth/forgot-password'],
      ['POST', '/api/auth/reset-password'],
      ['POST', '/api/auth/change-password'],
      ['GET', '/api/auth/email-confirmation'],
      ['POST', '/api/auth/send-email-confirmation'],
      ['GET', '/api/users'],
      ['GET', '/api/users/count'],
      ['GET', '/api/users/me'],
      ['GET', `/api/users/${u.id}`],
      ['POST', '/api/users'],
      ['PUT', `/api/users/${u.id}`],
      ['GET', '/api/users-permissions/roles'],
      ['GET', '/api/users-permissions/roles/1'],
      ['POST', '/api/users-permissions/roles'],
      ['PUT', '/api/users-permissions/roles/1'],
      ['GET', '/api/users-permissions/permissions'],
    ];
    const problems: string[] = [];
    for (const [method, path] of routes) {
      for (const token of [t.token, u.jwt, null]) {
        const shapes: { path: string; raw?: string }[] = method === 'GET' ? queries.map((q) => ({ path: path + q })) : bodies.map((b) => ({ path, raw: JSON.stringify(b) }));
        for (const s of shapes) {
          const r = await t.request(method, s.path, { token, ...(s.raw !== undefined ? { raw: s.raw, headers: { 'content-type': 'application/json' } } : {}) });
          if (r.status >= 500) problems.push(`${method} ${s.path} ${s.raw?.slice(0, 60) ?? ''} → ${r.status} ${r.text.slice(0, 120)}`);
        }
      }
    }
    expect(problems).toEqual([]);
    expect(({} as Record<string, unknown>)['admin']).toBeUndefined();
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    // the account is still what it was
    expect((await t.get(`/api/users/${u.id}`)).body).toMatchObject({ username: 'target', email: 'target@example.com', blocked: false });
  }, 120_000);
});
