// The id in the path of /api/users/:id and /api/users-permissions/roles/:id: the number forms Strapi
// 5.54 (on SQLite) reads as that row's id, and everything else naming no row (404).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { register, type Account } from './helpers.js';
import { errorOf } from './auth-support.js';

let t: TestApp;
let ann: Account;
let bob: Account;
beforeAll(async () => {
  t = await startTestApp();
  ann = await register(t, 'ann');
  bob = await register(t, 'bob');
});
afterAll(async () => {
  await t?.close();
});

/** path segments (already URL-encoded) that name row n, as on Strapi 5.54 */
const naming = (n: number): string[] => [
  `${n}`,
  `${n}.`,
  `${n}.0`,
  `${n}.000`,
  `0${n}`,
  `000${n}.0`,
  `+${n}`,
  `%2B${n}`,
  `${n}e0`,
  `${n}E%2B0`,
  `${n}e-0`,
  `${n}.e0`,
  `${n}0e-1`,
  `${n}00E-2`,
  `%20${n}`,
  `${n}%20`,
  `%20%20${n}%20`,
  `%09${n}%0A`,
  `%0B%0C${n}%0D`,
];

/** path segments that name no row: not a decimal number, not a positive whole one, or past any row id */
const namingNone = (n: number): string[] => [
  `${n}.5`,
  `${n - 1}.99999999999999999`, // Strapi on SQLite: row n (its double rounds); its exact value is no id
  `${n}.0000000000000001`,
  `0x${n}`,
  `-${n}`,
  `--${n}`,
  `%2B-${n}`,
  '0',
  '-0',
  '0.0',
  '2147483648',
  '99999999999999999999',
  '1e400',
  `${n}e400`,
  `${n}e-400`,
  '%20',
  '%09',
  '.e1',
  `${n}e`,
  'e1',
  'abc',
  `${n}abc`,
  `${n},0`,
  `%C2%A0${n}`, // a no-break space is not whitespace to SQLite either
  'Infinity',
  'NaN',
];

const USER_NOT_FOUND = errorOf(404, 'NotFoundError', 'User not found');
const ROLE_NOT_FOUND = errorOf(404, 'NotFoundError', 'Role not found');

describe('/api/users/:id', () => {
  it('GET reads every decimal number form of a row id as that user, with whitespace around it', async () => {
    const expected = await t.get(`/api/users/${bob.id}`);
    expect(expected.status).toBe(200);
    expect(expected.body.username).toBe('bob');
    for (const id of naming(bob.id)) {
      const r = await t.get(`/api/users/${id}`);
      expect([r.status, r.body], id).toEqual([200, expected.body]);
    }
  });

  it('GET answers 404 User not found for anything else', async () => {
    for (const id of namingNone(bob.id)) {
      const r = await t.get(`/api/users/${id}`);
      expect([r.status, r.body], id).toEqual([404, USER_NOT_FOUND]);
    }
  });

  it('PUT updates the user a number form names, and its own username is not "taken" (Strapi compares the path text)', async () => {
    for (const id of naming(ann.id)) {
      const r = await t.request('PUT', `/api/users/${id}`, { body: { username: 'ann', blocked: false } });
      expect([r.status, r.body.id, r.body.username], id).toEqual([200, ann.id, 'ann']);
    }
    const r = await t.request('PUT', `/api/users/${ann.id}.0`, { body: { username: 'bob' } });
    expect([r.status, r.body]).toEqual([400, errorOf(400, 'ApplicationError', 'Username already taken')]);
  });

  it('PUT and DELETE answer 404 User not found for anything else, and change nobody', async () => {
    const before = await t.get('/api/users?sort=id');
    for (const id of namingNone(ann.id)) {
      const put = await t.request('PUT', `/api/users/${id}`, { body: { blocked: true } });
      expect([put.status, put.body], `PUT ${id}`).toEqual([404, USER_NOT_FOUND]);
      const del = await t.request('DELETE', `/api/users/${id}`);
      expect([del.status, del.body], `DELETE ${id}`).toEqual([404, USER_NOT_FOUND]);
    }
    expect((await t.get('/api/users?sort=id')).body).toEqual(before.body);
  });

  it('DELETE removes the user a number form names', async () => {
    for (const id of [' 1', '1.0', '+1', '1e0', '01', '%0A1%09']) {
      const cid = await register(t);
      const shown = await t.get(`/api/users/${cid.id}`);
      const path = `/api/users/${id.replaceAll('1', String(cid.id)).replaceAll(' ', '%20')}`;
      const r = await t.request('DELETE', path);
      expect([r.status, r.body], path).toEqual([200, shown.body]);
      expect((await t.get(`/api/users/${cid.id}`)).status).toBe(404);
    }
  });
});

describe('/api/users-permissions/roles/:id', () => {
  const roleId = async (type: string): Promise<number> => {
    const { body } = await t.get('/api/users-permissions/roles');
    return (body.roles as { id: number; type: string }[]).find((r) => r.type === type)!.id;
  };

  it('GET reads every decimal number form of a row id as that role', async () => {
    const id = await roleId('authenticated');
    const expected = await t.get(`/api/users-permissions/roles/${id}`);
    expect(expected.body.role.type).toBe('authenticated');
    for (const form of naming(id)) {
      const r = await t.get(`/api/users-permissions/roles/${form}`);
      expect([r.status, r.body], form).toEqual([200, expected.body]);
    }
  });

  it('GET, PUT and DELETE answer 404 Role not found for anything else', async () => {
    const id = await roleId('authenticated');
    for (const form of namingNone(id)) {
      const get = await t.get(`/api/users-permissions/roles/${form}`);
      expect([get.status, get.body], `GET ${form}`).toEqual([404, ROLE_NOT_FOUND]);
      const put = await t.request('PUT', `/api/users-permissions/roles/${form}`, { body: { description: 'x' } });
      expect([put.status, put.body], `PUT ${form}`).toEqual([404, ROLE_NOT_FOUND]);
      const del = await t.request('DELETE', `/api/users-permissions/roles/${form}`);
      expect([del.status, del.body], `DELETE ${form}`).toEqual([404, ROLE_NOT_FOUND]);
    }
  });

  it('PUT updates the role a number form names', async () => {
    const id = await roleId('authenticated');
    const r = await t.request('PUT', `/api/users-permissions/roles/%20${id}.0`, { body: { description: 'via 1.0' } });
    expect([r.status, r.body]).toEqual([200, { ok: true }]);
    expect((await t.get(`/api/users-permissions/roles/${id}`)).body.role.description).toBe('via 1.0');
  });

  it('DELETE of the Public role is refused in every form (Strapi 5.54 deletes it when the path is not its plain id)', async () => {
    const id = await roleId('public');
    for (const form of [`${id}`, `${id}.0`, `%20${id}`, `+${id}`, `${id}e0`]) {
      const r = await t.request('DELETE', `/api/users-permissions/roles/${form}`);
      expect([r.status, r.body], form).toEqual([400, errorOf(400, 'ApplicationError', 'Cannot delete public role')]);
    }
    expect((await t.get(`/api/users-permissions/roles/${id}`)).status).toBe(200);
  });

  it('DELETE removes the role a number form names', async () => {
    const made = await t.request('POST', '/api/users-permissions/roles', { body: { name: 'Editors' } });
    expect(made.status).toBe(200);
    const id = await roleId('editors');
    const r = await t.request('DELETE', `/api/users-permissions/roles/${id}.0%20`);
    expect([r.status, r.body]).toEqual([200, { ok: true }]);
    expect((await t.get(`/api/users-permissions/roles/${id}`)).status).toBe(404);
  });
});
